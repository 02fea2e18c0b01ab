import { type KeyboardEvent, type MutableRefObject, type PointerEvent, useId, useRef, useState } from 'react';
import { Cpu, User } from 'lucide-react';
import { byPerson, type DraftBox, scorePercent, sourceText } from '../../lib/annotation-draft';
import { type Box, boxBetween, boxPercent, type DragMode, dragBox, type Handle, HANDLES, isArrow, nudgeBox, type Point, pointIn } from '../../lib/box-geometry';
import type { PhotoDraft } from './usePhotoDraft';
import { useTranslation } from '../../i18n';

const percent = (score: number) => (Number.isFinite(score) ? `${scorePercent(score)} %` : '– %');

/** A box's classes: who made it (colour) and whether it is the selected one. */
const boxClass = (b: DraftBox, selected: boolean) =>
  `box editable ${byPerson(b.source) ? 'by-person' : b.source === null ? 'by-unknown' : 'by-detector'}${selected ? ' selected' : ''}`;

export type Focus = { key: number; where: 'box' | 'label' };
export type Elements = MutableRefObject<Map<string, HTMLElement>>;
export const elementKey = (f: Focus) => `${f.where}:${f.key}`;
/** A ref callback keeping an element in `elements` under its box key while it is shown. */
export const keep = (elements: Elements, f: Focus) => (el: HTMLElement | null) => {
  if (el) elements.current.set(elementKey(f), el);
  else elements.current.delete(elementKey(f));
};

/** The photo with its boxes: drawn by dragging on it, moved and resized by mouse or keyboard. */
export function AnnotatorFrame({
  state,
  src,
  alt,
  focus,
  elements,
}: {
  state: PhotoDraft;
  src: string;
  alt: string;
  focus: (f: Focus) => void;
  elements: Elements;
}) {
  const { t } = useTranslation();
  const { draft, selected, setSelected, updateBox, addBox, removeBox } = state;
  const frame = useRef<HTMLDivElement>(null);
  const drag = useRef<{ mode: DragMode | 'draw'; key: number | null; start: Point; box: Box | null } | null>(null);
  const [preview, setPreview] = useState<Box | null>(null);
  const helpId = useId();
  const point = (e: PointerEvent) => pointIn(frame.current!.getBoundingClientRect(), e.clientX, e.clientY);

  const down = (e: PointerEvent<HTMLDivElement>) => {
    if (e.button !== 0) return;
    e.preventDefault();
    const target = e.target as HTMLElement;
    const boxElement = target.closest<HTMLElement>('[data-box-key]');
    const key = boxElement ? Number(boxElement.dataset.boxKey) : null;
    const box = draft.boxes.find((b) => b.key === key) ?? null;
    // Shift + drag draws even over a box (a herd's boxes can leave no free spot to start from).
    if (box && boxElement && !e.shiftKey) {
      setSelected(box.key);
      boxElement.focus();
      drag.current = { mode: (target.dataset.handle as Handle | undefined) ?? 'move', key: box.key, start: point(e), box: box.bbox };
    } else {
      setSelected(null);
      drag.current = { mode: 'draw', key: null, start: point(e), box: null };
    }
    frame.current!.setPointerCapture(e.pointerId);
  };
  const move = (e: PointerEvent<HTMLDivElement>) => {
    const d = drag.current;
    if (!d) return;
    const p = point(e);
    if (d.mode === 'draw') setPreview(boxBetween(d.start, p));
    else if (d.key !== null && d.box) updateBox(d.key, { bbox: dragBox(d.box, d.mode, p.x - d.start.x, p.y - d.start.y) });
  };
  const up = (e: PointerEvent<HTMLDivElement>) => {
    const d = drag.current;
    drag.current = null;
    setPreview(null);
    if (frame.current?.hasPointerCapture(e.pointerId)) frame.current.releasePointerCapture(e.pointerId);
    if (d?.mode !== 'draw') return;
    const drawn = boxBetween(d.start, point(e));
    // A box just drawn wants its label: the label field takes the keyboard.
    if (drawn) focus({ key: addBox(drawn).key, where: 'label' });
  };
  const cancel = () => {
    drag.current = null;
    setPreview(null);
  };

  const boxKey = (e: KeyboardEvent<HTMLDivElement>, b: DraftBox) => {
    if (isArrow(e.key)) {
      updateBox(b.key, { bbox: nudgeBox(b.bbox, e.key, { resize: e.shiftKey, fine: e.ctrlKey || e.metaKey }) });
    } else if (e.key === 'Delete' || e.key === 'Backspace') {
      removeBox(b.key);
      frame.current?.focus();
    } else if (e.key === 'Enter' || e.key === ' ') {
      focus({ key: b.key, where: 'label' });
    } else if (e.key === 'Escape') {
      setSelected(null);
      e.currentTarget.blur();
    } else return;
    // Handled here: the page's own keys (← → to the next photo, Escape back) stay out of it.
    e.preventDefault();
  };

  return (
    <figure className="annotated annotator">
      <div
        ref={frame}
        className={`annotated-frame annotator-frame${preview ? ' drawing' : ''}`}
        onPointerDown={down}
        onPointerMove={move}
        onPointerUp={up}
        onPointerCancel={cancel}
        tabIndex={-1}
        data-testid="annotator-frame"
      >
        <img src={src} alt={alt} draggable={false} />
        {draft.boxes.map((b, i) => (
          <div
            key={b.key}
            ref={keep(elements, { key: b.key, where: 'box' })}
            className={boxClass(b, selected === b.key)}
            style={boxPercent(b.bbox)}
            role="button"
            tabIndex={0}
            aria-label={t('cameraTraps.annotator.box', {
              n: i + 1,
              label: b.label || t('cameraTraps.annotator.noLabelYet'),
              score: percent(b.score),
              source: sourceText(b.source),
            })}
            aria-describedby={helpId}
            data-box-key={b.key}
            data-label={b.label}
            data-source={b.source ?? ''}
            onFocus={() => setSelected(b.key)}
            onKeyDown={(e) => boxKey(e, b)}
          >
            <span className="box-label" aria-hidden>
              {byPerson(b.source) ? <User size={11} /> : b.source ? <Cpu size={11} /> : null} {i + 1}. {b.label || '…'} {percent(b.score)}
            </span>
            {selected === b.key ? HANDLES.map((h) => <span key={h} className={`handle handle-${h}`} data-handle={h} aria-hidden />) : null}
          </div>
        ))}
        {preview ? <div className="box drawing-box" style={boxPercent(preview)} aria-hidden /> : null}
      </div>
      <figcaption id={helpId} className="muted small">
        {t('cameraTraps.annotator.help')}
      </figcaption>
    </figure>
  );
}

/** The photo with its boxes, to look at only: for a role that may not change annotations (a viewer). */
export function AnnotatedPhoto({ boxes, src, alt }: { boxes: readonly DraftBox[]; src: string; alt: string }) {
  const { t } = useTranslation();
  return (
    <figure className="annotated">
      <div className="annotated-frame">
        <img src={src} alt={alt} draggable={false} />
        {boxes.map((b, i) => (
          <div
            key={b.key}
            className={boxClass(b, false).replace(' editable', '')}
            style={boxPercent(b.bbox)}
            role="img"
            aria-label={t('cameraTraps.annotator.box', {
              n: i + 1,
              label: b.label || t('cameraTraps.annotator.noLabel'),
              score: percent(b.score),
              source: sourceText(b.source),
            })}
            data-label={b.label}
          >
            <span className="box-label" aria-hidden>
              {byPerson(b.source) ? <User size={11} /> : b.source ? <Cpu size={11} /> : null} {i + 1}. {b.label || '…'} {percent(b.score)}
            </span>
          </div>
        ))}
      </div>
    </figure>
  );
}
