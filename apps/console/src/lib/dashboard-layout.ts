import {
  DASHBOARD_COLUMNS,
  DASHBOARD_ROWS_MAX,
  DASHBOARD_WIDGET_HEIGHT_MAX,
  type DashboardShareRole,
  type DashboardWidget,
  type DashboardWidgetKind,
} from '@dts/domain';
import { i18n } from '../i18n';

/**
 * The dashboard editor's state and its moves, without React: a widget moves or grows by one grid
 * cell at a time (buttons, arrow keys), and whatever it lands on is pushed down to make room, as
 * in Grafana. Nothing is pulled up by itself: a gap a person leaves is theirs to close. The result
 * never has two widgets overlapping, which the service refuses (docs/api.md §21).
 */

export interface Box {
  id: string;
  x: number;
  y: number;
  w: number;
  h: number;
}

export const overlaps = (a: Box, b: Box) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;

/** The widgets in reading order: by row, then column (the one-column phone layout and screen readers follow it). */
export function readingOrder<T extends Box>(widgets: readonly T[]): T[] {
  return [...widgets].sort((a, b) => a.y - b.y || a.x - b.x);
}

/** Everything `fixed` now overlaps is pushed below it, and what those land on below them, in turn. */
export function makeRoom<T extends Box>(widgets: readonly T[], fixedId: string): T[] {
  const out = widgets.map((w) => ({ ...w }));
  const fixed = out.find((w) => w.id === fixedId);
  if (!fixed) return out;
  const queue: T[] = [fixed];
  while (queue.length > 0) {
    const current = queue.shift()!;
    for (const other of readingOrder(out)) {
      if (other === current || other === fixed || !overlaps(current, other)) continue;
      other.y = current.y + current.h;
      queue.push(other);
    }
  }
  return out;
}

const clamp = (v: number, min: number, max: number) => Math.min(max, Math.max(min, v));

/** The widget moved by whole cells within the grid, the others making room. */
export function moveWidget<T extends Box>(widgets: readonly T[], id: string, dx: number, dy: number): T[] {
  return makeRoom(
    widgets.map((w) => (w.id === id ? { ...w, x: clamp(w.x + dx, 0, DASHBOARD_COLUMNS - w.w), y: clamp(w.y + dy, 0, DASHBOARD_ROWS_MAX - w.h) } : w)),
    id,
  );
}

/** The widget made wider or taller by whole cells (at the grid's right edge it grows leftwards), the others making room. */
export function resizeWidget<T extends Box>(widgets: readonly T[], id: string, dw: number, dh: number): T[] {
  return makeRoom(
    widgets.map((widget) => {
      if (widget.id !== id) return widget;
      const w = clamp(widget.w + dw, 1, DASHBOARD_COLUMNS);
      const h = clamp(widget.h + dh, 1, DASHBOARD_WIDGET_HEIGHT_MAX);
      return { ...widget, w, h, x: Math.min(widget.x, DASHBOARD_COLUMNS - w) };
    }),
    id,
  );
}

/** The first place (top to bottom, left to right) where a w × h widget fits without pushing anything. */
export function freeSpot(widgets: readonly Box[], w: number, h: number): { x: number; y: number } {
  for (let y = 0; y + h <= DASHBOARD_ROWS_MAX; y++) {
    for (let x = 0; x + w <= DASHBOARD_COLUMNS; x++) {
      if (!widgets.some((other) => overlaps({ id: '', x, y, w, h }, other))) return { x, y };
    }
  }
  return { x: 0, y: Math.max(0, ...widgets.map((o) => o.y + o.h)) };
}

/** A widget's size when it is added: wide enough for what it shows. */
export const DEFAULT_SIZE: Record<DashboardWidgetKind, { w: number; h: number }> = {
  chart: { w: 8, h: 4 },
  latest: { w: 3, h: 2 },
  gauge: { w: 3, h: 3 },
  map: { w: 6, h: 4 },
  alerts: { w: 6, h: 4 },
};

/** A widget kind's name in the console's language ("Chart", "Latest value", …). */
export const kindName = (kind: DashboardWidgetKind): string => i18n.t(`dashboards.kinds.${kind}`);

export interface EditorState {
  name: string;
  shared_role: DashboardShareRole | null;
  widgets: DashboardWidget[];
  /** Whether anything differs from what was loaded (leaving asks first). */
  dirty: boolean;
}

/** What a widget shows, without where: one shape per kind (Pick over the union would lose which options go with which kind). */
export type WidgetContent = { [K in DashboardWidgetKind]: Pick<Extract<DashboardWidget, { kind: K }>, 'kind' | 'title' | 'options'> }[DashboardWidgetKind];

export type EditorAction =
  | { type: 'rename'; name: string }
  | { type: 'share'; role: DashboardShareRole | null }
  | { type: 'add'; widget: WidgetContent }
  | { type: 'change'; id: string; widget: WidgetContent }
  | { type: 'remove'; id: string }
  | { type: 'move'; id: string; dx: number; dy: number }
  | { type: 'resize'; id: string; dw: number; dh: number };

/** A widget id not used in the dashboard: short, readable in the stored JSON. */
export function newWidgetId(widgets: readonly { id: string }[], kind: string): string {
  for (let n = 1; ; n++) {
    const id = `${kind}-${n}`;
    if (!widgets.some((w) => w.id === id)) return id;
  }
}

export function editorReducer(state: EditorState, action: EditorAction): EditorState {
  switch (action.type) {
    case 'rename':
      return { ...state, name: action.name, dirty: true };
    case 'share':
      return { ...state, shared_role: action.role, dirty: true };
    case 'add': {
      const size = DEFAULT_SIZE[action.widget.kind];
      const spot = freeSpot(state.widgets, size.w, size.h);
      const widget = { ...action.widget, id: newWidgetId(state.widgets, action.widget.kind), ...size, ...spot } as DashboardWidget;
      return { ...state, widgets: [...state.widgets, widget], dirty: true };
    }
    case 'change':
      return { ...state, widgets: state.widgets.map((w) => (w.id === action.id ? ({ ...w, ...action.widget } as DashboardWidget) : w)), dirty: true };
    case 'remove':
      return { ...state, widgets: state.widgets.filter((w) => w.id !== action.id), dirty: true };
    case 'move':
      return { ...state, widgets: moveWidget(state.widgets, action.id, action.dx, action.dy), dirty: true };
    case 'resize':
      return { ...state, widgets: resizeWidget(state.widgets, action.id, action.dw, action.dh), dirty: true };
  }
}
