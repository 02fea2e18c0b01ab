import {
  DASHBOARD_COLUMNS,
  DASHBOARD_MAX_WIDGETS,
  DASHBOARD_NAME_MAX_LENGTH,
  DASHBOARD_SHARE_ROLES,
  DASHBOARD_WIDGET_HEIGHT_MAX,
  type DashboardShareRole,
  type DashboardWidget,
  type DeviceMetaWire,
} from '@dts/domain';
import { ArrowDown, ArrowLeft, ArrowRight, ArrowUp, GripVertical, Minus, MoveHorizontal, MoveVertical, Pencil, Plus, Trash2 } from 'lucide-react';
import { type FormEvent, type KeyboardEvent, type PointerEvent, useMemo, useReducer, useRef, useState } from 'react';
import { SelectField, TextField } from '../../components/form';
import { ErrorBox } from '../../components/ui';
import { editorReducer, type EditorAction, type EditorState, KIND_NAMES, readingOrder } from '../../lib/dashboard-layout';
import { defaultTitle, useDescribe } from './describe';
import { GAP_PX, ROW_PX } from './grid';
import { WidgetForm } from './WidgetForm';

export const SHARE_TEXT: Record<DashboardShareRole | 'private', string> = {
  private: 'Only me',
  viewer: 'Every member (viewers and up)',
  operator: 'Operators, admins and owners',
  admin: 'Admins and owners',
};

export const SHARE_BADGE: Record<DashboardShareRole, string> = {
  viewer: 'Shared with every member',
  operator: 'Shared with operators and up',
  admin: 'Shared with admins and up',
};

/** Where a widget is, in words (screen readers hear it after each move). */
const placeText = (w: DashboardWidget) => `column ${w.x + 1}, row ${w.y + 1}, ${w.w} columns wide, ${w.h} rows high`;

/**
 * Editing a dashboard: its name and who sees it, widgets added, changed, moved and resized by one
 * grid cell at a time — by the buttons on each widget, or with the widget focused, by the arrow
 * keys (Shift + arrows resize) — and removed. Nothing is sent before Save: the arrangement is
 * stored whole, as the service takes it.
 */
export function DashboardEditor({
  initial,
  devices,
  shareable,
  saving,
  error,
  onSave,
  onCancel,
}: {
  initial: Pick<EditorState, 'name' | 'shared_role' | 'widgets'>;
  devices: readonly DeviceMetaWire[];
  /** Whether the console acts in an organisation (sharing means something only there). */
  shareable: boolean;
  saving: boolean;
  error: unknown;
  onSave: (state: EditorState) => void;
  onCancel: () => void;
}) {
  const [state, dispatch] = useReducer(editorReducer, { ...initial, dirty: false });
  const [form, setForm] = useState<{ mode: 'add' } | { mode: 'change'; id: string } | null>(initial.widgets.length === 0 ? { mode: 'add' } : null);
  const [announcement, setAnnouncement] = useState('');
  const [nameProblem, setNameProblem] = useState('');
  const describe = useDescribe();
  const byEui = useMemo(() => new Map(devices.map((d) => [d.devEUI, d])), [devices]);
  const ordered = readingOrder(state.widgets);
  const editing = form?.mode === 'change' ? state.widgets.find((w) => w.id === form.id) : undefined;
  const titleOf = (w: DashboardWidget) => w.title || defaultTitle(w, byEui, describe);

  const act = (action: EditorAction & { id: string }, what: string) => {
    const next = editorReducer(state, action);
    dispatch(action);
    const moved = next.widgets.find((w) => w.id === action.id);
    if (moved) setAnnouncement(`${what}: ${titleOf(moved)} is now at ${placeText(moved)}.`);
  };
  const onKey = (w: DashboardWidget, event: KeyboardEvent) => {
    if (event.target !== event.currentTarget) return;
    const step: Record<string, [number, number]> = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    const d = step[event.key];
    if (!d) return;
    event.preventDefault();
    if (event.shiftKey) act({ type: 'resize', id: w.id, dw: d[0], dh: d[1] }, 'Resized');
    else act({ type: 'move', id: w.id, dx: d[0], dy: d[1] }, 'Moved');
  };
  // Dragging by a widget's head (a mouse or a finger; the keyboard has the arrows): the pointer's
  // travel in whole grid cells from where it was pressed moves the widget, the others making room.
  const grid = useRef<HTMLUListElement>(null);
  const dragging = useRef<{ id: string; x0: number; y0: number; px: number; py: number; cellW: number; cellH: number; at: [number, number] } | null>(null);
  const startDrag = (w: DashboardWidget, event: PointerEvent<HTMLElement>) => {
    const element = grid.current;
    if (event.button !== 0 || !element) return;
    // One column (a phone): the place on the grid is not what the person sees; the buttons move it.
    if (getComputedStyle(element).gridTemplateColumns.split(' ').length < DASHBOARD_COLUMNS) return;
    event.currentTarget.setPointerCapture(event.pointerId);
    const cellW = (element.getBoundingClientRect().width + GAP_PX) / DASHBOARD_COLUMNS;
    dragging.current = { id: w.id, x0: w.x, y0: w.y, px: event.clientX, py: event.clientY, cellW, cellH: ROW_PX + GAP_PX, at: [w.x, w.y] };
  };
  const moveDrag = (event: PointerEvent<HTMLElement>) => {
    const d = dragging.current;
    if (!d) return;
    const x = d.x0 + Math.round((event.clientX - d.px) / d.cellW);
    const y = Math.max(0, d.y0 + Math.round((event.clientY - d.py) / d.cellH));
    if (x === d.at[0] && y === d.at[1]) return;
    dispatch({ type: 'move', id: d.id, dx: x - d.at[0], dy: y - d.at[1] });
    d.at = [x, y];
  };
  const endDrag = () => {
    const d = dragging.current;
    dragging.current = null;
    const moved = d && state.widgets.find((w) => w.id === d.id);
    if (moved && (moved.x !== d.x0 || moved.y !== d.y0)) setAnnouncement(`Moved: ${titleOf(moved)} is now at ${placeText(moved)}.`);
  };
  const save = (event: FormEvent) => {
    event.preventDefault();
    if (!state.name.trim()) {
      setNameProblem('Give the dashboard a name.');
      return;
    }
    setNameProblem('');
    onSave({ ...state, name: state.name.trim() });
  };

  return (
    <div className="dash-editor">
      <form className="card dash-editor-head" onSubmit={save} aria-label="Dashboard settings" noValidate>
        <div className="dash-editor-fields">
          <TextField
            label="Name"
            value={state.name}
            maxLength={DASHBOARD_NAME_MAX_LENGTH}
            onChange={(e) => dispatch({ type: 'rename', name: e.target.value })}
            error={nameProblem || undefined}
          />
          {shareable ? (
            <SelectField
              label="Who sees it"
              value={state.shared_role ?? 'private'}
              options={(['private', ...DASHBOARD_SHARE_ROLES] as const).map((r) => ({ value: r, label: SHARE_TEXT[r] }))}
              onChange={(e) => dispatch({ type: 'share', role: e.target.value === 'private' ? null : (e.target.value as DashboardShareRole) })}
              hint="Members who see it and may not change it see it read-only."
            />
          ) : null}
        </div>
        <div className="button-row">
          <button
            type="button"
            onClick={() => setForm({ mode: 'add' })}
            disabled={form !== null || state.widgets.length >= DASHBOARD_MAX_WIDGETS}
            aria-describedby={state.widgets.length >= DASHBOARD_MAX_WIDGETS ? 'dash-full' : undefined}
          >
            <Plus aria-hidden size={16} /> Add widget
          </button>
          <button type="submit" className="primary" disabled={saving || form !== null}>
            Save dashboard
          </button>
          <button type="button" className="ghost" onClick={onCancel}>
            {state.dirty ? 'Discard changes' : 'Done'}
          </button>
          {state.widgets.length >= DASHBOARD_MAX_WIDGETS ? (
            <span id="dash-full" className="muted small">
              A dashboard holds at most {DASHBOARD_MAX_WIDGETS} widgets.
            </span>
          ) : null}
        </div>
        <ErrorBox error={error} />
        <p className="muted small">
          Drag a widget by its title, or move it with its arrow buttons or, focused, with the arrow keys; Shift with the arrow keys makes it larger or smaller.
          Widgets in the way move down.
        </p>
      </form>
      <p className="sr-only" role="status" aria-live="polite">
        {announcement}
      </p>
      {form ? (
        <WidgetForm
          key={form.mode === 'change' ? form.id : 'add'}
          initial={editing}
          devices={devices}
          onCancel={() => setForm(null)}
          onDone={(widget) => {
            if (form.mode === 'change') dispatch({ type: 'change', id: form.id, widget });
            else dispatch({ type: 'add', widget });
            setAnnouncement(form.mode === 'change' ? 'Widget changed.' : `${KIND_NAMES[widget.kind]} added.`);
            setForm(null);
          }}
        />
      ) : null}
      {ordered.length === 0 && !form ? <p className="empty">No widget yet: add one.</p> : null}
      <ul className="dash-grid dash-grid-edit" aria-label="Widgets" ref={grid}>
        {ordered.map((w) => (
          <li
            key={w.id}
            className="dash-widget dash-widget-edit"
            style={{ gridColumn: `${w.x + 1} / span ${w.w}`, gridRow: `${w.y + 1} / span ${w.h}` }}
            tabIndex={0}
            aria-label={`${KIND_NAMES[w.kind]}: ${titleOf(w)}, ${placeText(w)}`}
            onKeyDown={(e) => onKey(w, e)}
          >
            <div
              className="dash-widget-head dash-drag"
              onPointerDown={(e) => startDrag(w, e)}
              onPointerMove={moveDrag}
              onPointerUp={endDrag}
              onPointerCancel={endDrag}
              title="Drag to move"
            >
              <GripVertical aria-hidden size={16} className="dash-grip" />
              <h3>{titleOf(w)}</h3>
              <span className="badge">{KIND_NAMES[w.kind]}</span>
            </div>
            <p className="muted small dash-place">
              Column {w.x + 1}, row {w.y + 1} · {w.w} × {w.h}
            </p>
            <div className="dash-tools" role="group" aria-label={`Arrange ${titleOf(w)}`}>
              <button
                type="button"
                className="small"
                onClick={() => act({ type: 'move', id: w.id, dx: -1, dy: 0 }, 'Moved')}
                disabled={w.x === 0}
                title="Move left"
              >
                <ArrowLeft aria-hidden size={16} />
                <span className="sr-only">Move left</span>
              </button>
              <button
                type="button"
                className="small"
                onClick={() => act({ type: 'move', id: w.id, dx: 1, dy: 0 }, 'Moved')}
                disabled={w.x + w.w >= DASHBOARD_COLUMNS}
                title="Move right"
              >
                <ArrowRight aria-hidden size={16} />
                <span className="sr-only">Move right</span>
              </button>
              <button
                type="button"
                className="small"
                onClick={() => act({ type: 'move', id: w.id, dx: 0, dy: -1 }, 'Moved')}
                disabled={w.y === 0}
                title="Move up"
              >
                <ArrowUp aria-hidden size={16} />
                <span className="sr-only">Move up</span>
              </button>
              <button type="button" className="small" onClick={() => act({ type: 'move', id: w.id, dx: 0, dy: 1 }, 'Moved')} title="Move down">
                <ArrowDown aria-hidden size={16} />
                <span className="sr-only">Move down</span>
              </button>
              <button
                type="button"
                className="small"
                onClick={() => act({ type: 'resize', id: w.id, dw: -1, dh: 0 }, 'Resized')}
                disabled={w.w <= 1}
                title="Narrower"
              >
                <Minus aria-hidden size={14} />
                <MoveHorizontal aria-hidden size={16} />
                <span className="sr-only">Narrower</span>
              </button>
              <button
                type="button"
                className="small"
                onClick={() => act({ type: 'resize', id: w.id, dw: 1, dh: 0 }, 'Resized')}
                disabled={w.w >= DASHBOARD_COLUMNS}
                title="Wider"
              >
                <Plus aria-hidden size={14} />
                <MoveHorizontal aria-hidden size={16} />
                <span className="sr-only">Wider</span>
              </button>
              <button
                type="button"
                className="small"
                onClick={() => act({ type: 'resize', id: w.id, dw: 0, dh: -1 }, 'Resized')}
                disabled={w.h <= 1}
                title="Shorter"
              >
                <Minus aria-hidden size={14} />
                <MoveVertical aria-hidden size={16} />
                <span className="sr-only">Shorter</span>
              </button>
              <button
                type="button"
                className="small"
                onClick={() => act({ type: 'resize', id: w.id, dw: 0, dh: 1 }, 'Resized')}
                disabled={w.h >= DASHBOARD_WIDGET_HEIGHT_MAX}
                title="Taller"
              >
                <Plus aria-hidden size={14} />
                <MoveVertical aria-hidden size={16} />
                <span className="sr-only">Taller</span>
              </button>
            </div>
            <div className="button-row">
              <button type="button" className="small" onClick={() => setForm({ mode: 'change', id: w.id })} disabled={form !== null}>
                <Pencil aria-hidden size={14} /> Change<span className="sr-only"> {titleOf(w)}</span>
              </button>
              <button
                type="button"
                className="small danger"
                onClick={() => {
                  dispatch({ type: 'remove', id: w.id });
                  setAnnouncement(`${titleOf(w)} removed.`);
                }}
              >
                <Trash2 aria-hidden size={14} /> Remove<span className="sr-only"> {titleOf(w)}</span>
              </button>
            </div>
          </li>
        ))}
      </ul>
    </div>
  );
}
