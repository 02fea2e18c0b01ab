/**
 * Boxes on a photo in normalised coordinates: [x, y, width, height], each within 0..1 of the
 * image's width or height, as the service stores them (MegaDetector's convention). The console
 * draws, drags and nudges them here; the pixels of the photo on screen come in only through
 * `pointIn`.
 */
export type Box = [number, number, number, number];
export type Point = { x: number; y: number };
/** A corner or an edge of a box, by compass direction; `move` drags the whole box. */
export type Handle = 'n' | 's' | 'e' | 'w' | 'ne' | 'nw' | 'se' | 'sw';
export type DragMode = Handle | 'move';

export const HANDLES: readonly Handle[] = ['nw', 'n', 'ne', 'e', 'se', 's', 'sw', 'w'];
/** The smallest box kept (1 % of each side): a click that barely moves draws nothing. */
export const MIN_SIZE = 0.01;
/** One press of an arrow key: 1 % of the image; with Ctrl (or ⌘) a fine 0.2 %. */
export const NUDGE = 0.01;
export const FINE_NUDGE = 0.002;
/** Where the keyboard's new box goes: the middle of the photo, a third of each side. */
export const NEW_BOX: Box = [1 / 3, 1 / 3, 1 / 3, 1 / 3];

const clamp01 = (v: number) => (Number.isFinite(v) ? Math.min(1, Math.max(0, v)) : 0);
/** Six decimals: well below a pixel of any camera, and no 0.30000000000000004 in what is stored. */
const round = (v: number) => Math.round(v * 1e6) / 1e6;

/**
 * A box inside the image: its corners clamped to 0..1, at least MIN_SIZE on each side (grown
 * towards the image's inside when at an edge).
 */
export function clampBox([x, y, w, h]: Box): Box {
  const fit = (start: number, size: number): [number, number] => {
    let a = clamp01(start);
    let b = clamp01(start + (Number.isFinite(size) ? Math.max(0, size) : 0));
    if (b - a < MIN_SIZE) {
      b = Math.min(1, a + MIN_SIZE);
      a = Math.min(a, b - MIN_SIZE);
    }
    return [round(a), round(b - a)];
  };
  const [nx, nw] = fit(x, w);
  const [ny, nh] = fit(y, h);
  return [nx, ny, nw, nh];
}

/** The point of the image under the pointer, clamped to it, from the image's rectangle on screen. */
export function pointIn(rect: { left: number; top: number; width: number; height: number }, clientX: number, clientY: number): Point {
  if (rect.width <= 0 || rect.height <= 0) return { x: 0, y: 0 };
  return { x: clamp01((clientX - rect.left) / rect.width), y: clamp01((clientY - rect.top) / rect.height) };
}

/** The box spanned by two points, whichever way the pointer went; null when too small to be meant. */
export function boxBetween(a: Point, b: Point): Box | null {
  const x0 = clamp01(Math.min(a.x, b.x));
  const x1 = clamp01(Math.max(a.x, b.x));
  const y0 = clamp01(Math.min(a.y, b.y));
  const y1 = clamp01(Math.max(a.y, b.y));
  if (x1 - x0 < MIN_SIZE || y1 - y0 < MIN_SIZE) return null;
  return [round(x0), round(y0), round(x1 - x0), round(y1 - y0)];
}

/**
 * A box dragged by (dx, dy), in image fractions, from where it was when the drag began: `move`
 * shifts it whole and stops it at the image's edges (its size kept); a handle moves its edges,
 * each kept inside the image and at least MIN_SIZE from the opposite one (no flipping over).
 */
export function dragBox(start: Box, mode: DragMode, dx: number, dy: number): Box {
  const [x, y, w, h] = start;
  if (mode === 'move') {
    const nx = Math.min(Math.max(0, x + dx), 1 - w);
    const ny = Math.min(Math.max(0, y + dy), 1 - h);
    return clampBox([nx, ny, w, h]);
  }
  let left = x;
  let top = y;
  let right = x + w;
  let bottom = y + h;
  if (mode.includes('w')) left = Math.min(Math.max(0, x + dx), right - MIN_SIZE);
  if (mode.includes('e')) right = Math.max(Math.min(1, x + w + dx), left + MIN_SIZE);
  if (mode.includes('n')) top = Math.min(Math.max(0, y + dy), bottom - MIN_SIZE);
  if (mode.includes('s')) bottom = Math.max(Math.min(1, y + h + dy), top + MIN_SIZE);
  return clampBox([left, top, right - left, bottom - top]);
}

export type ArrowKey = 'ArrowLeft' | 'ArrowRight' | 'ArrowUp' | 'ArrowDown';
export const isArrow = (key: string): key is ArrowKey => key === 'ArrowLeft' || key === 'ArrowRight' || key === 'ArrowUp' || key === 'ArrowDown';

/**
 * An arrow key on a selected box: it moves the box, or with `resize` (Shift) moves its right or
 * bottom edge (→ and ↓ grow it, ← and ↑ shrink it); `fine` (Ctrl or ⌘) takes the small step.
 */
export function nudgeBox(box: Box, key: ArrowKey, options: { resize?: boolean; fine?: boolean } = {}): Box {
  const step = options.fine ? FINE_NUDGE : NUDGE;
  const dx = key === 'ArrowLeft' ? -step : key === 'ArrowRight' ? step : 0;
  const dy = key === 'ArrowUp' ? -step : key === 'ArrowDown' ? step : 0;
  return dragBox(box, options.resize ? 'se' : 'move', dx, dy);
}

/** Two boxes the same to a millionth: an edit that changed nothing is not an edit. */
export const sameBox = (a: Box, b: Box) => a.every((v, i) => Math.abs(v - b[i]!) < 1e-6);

/** A box as CSS percentages of the photo (absolutely placed over it). */
export function boxPercent([x, y, w, h]: Box): { left: string; top: string; width: string; height: string } {
  const pct = (v: number) => `${(v * 100).toFixed(3)}%`;
  return { left: pct(x), top: pct(y), width: pct(w), height: pct(h) };
}
