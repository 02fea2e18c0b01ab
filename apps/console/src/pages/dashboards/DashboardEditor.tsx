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
import { type FormEvent, type KeyboardEvent, type PointerEvent, type ReactNode, useMemo, useReducer, useRef, useState } from 'react';
import { SelectField, TextField } from '../../components/form';
import { ErrorBox } from '../../components/ui';
import { Trans } from 'react-i18next';
import { useTranslation } from '../../i18n';
import { editorReducer, type EditorAction, type EditorState, kindName, readingOrder } from '../../lib/dashboard-layout';
import { defaultTitle, useDescribe } from './describe';
import { GAP_PX, ROW_PX } from './grid';
import { WidgetForm } from './WidgetForm';

/**
 * Editing a dashboard: its name and who sees it, widgets added, changed, moved and resized by one
 * grid cell at a time — by the buttons on each widget, or with the widget focused, by the arrow
 * keys (Shift + arrows resize) — and removed. Nothing is sent before Save: the arrangement is
 * stored whole, as the service takes it.
 */

type Arrange = { type: 'move'; dx: number; dy: number } | { type: 'resize'; dw: number; dh: number };
/** The editor's buttons to move and resize a widget by one cell (the keyboard's arrows do the same): each its action, when it applies, its icons. */
const ARRANGE: readonly {
  label: 'moveLeft' | 'moveRight' | 'moveUp' | 'moveDown' | 'narrower' | 'wider' | 'shorter' | 'taller';
  action: Arrange;
  allowed: (w: DashboardWidget) => boolean;
  icons: ReactNode;
}[] = [
  { label: 'moveLeft', action: { type: 'move', dx: -1, dy: 0 }, allowed: (w) => w.x > 0, icons: <ArrowLeft aria-hidden size={16} /> },
  { label: 'moveRight', action: { type: 'move', dx: 1, dy: 0 }, allowed: (w) => w.x + w.w < DASHBOARD_COLUMNS, icons: <ArrowRight aria-hidden size={16} /> },
  { label: 'moveUp', action: { type: 'move', dx: 0, dy: -1 }, allowed: (w) => w.y > 0, icons: <ArrowUp aria-hidden size={16} /> },
  { label: 'moveDown', action: { type: 'move', dx: 0, dy: 1 }, allowed: () => true, icons: <ArrowDown aria-hidden size={16} /> },
  {
    label: 'narrower',
    action: { type: 'resize', dw: -1, dh: 0 },
    allowed: (w) => w.w > 1,
    icons: (
      <>
        <Minus aria-hidden size={14} />
        <MoveHorizontal aria-hidden size={16} />
      </>
    ),
  },
  {
    label: 'wider',
    action: { type: 'resize', dw: 1, dh: 0 },
    allowed: (w) => w.w < DASHBOARD_COLUMNS,
    icons: (
      <>
        <Plus aria-hidden size={14} />
        <MoveHorizontal aria-hidden size={16} />
      </>
    ),
  },
  {
    label: 'shorter',
    action: { type: 'resize', dw: 0, dh: -1 },
    allowed: (w) => w.h > 1,
    icons: (
      <>
        <Minus aria-hidden size={14} />
        <MoveVertical aria-hidden size={16} />
      </>
    ),
  },
  {
    label: 'taller',
    action: { type: 'resize', dw: 0, dh: 1 },
    allowed: (w) => w.h < DASHBOARD_WIDGET_HEIGHT_MAX,
    icons: (
      <>
        <Plus aria-hidden size={14} />
        <MoveVertical aria-hidden size={16} />
      </>
    ),
  },
];

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
  const { t } = useTranslation();
  const [state, dispatch] = useReducer(editorReducer, { ...initial, dirty: false });
  const [form, setForm] = useState<{ mode: 'add' } | { mode: 'change'; id: string } | null>(initial.widgets.length === 0 ? { mode: 'add' } : null);
  const [announcement, setAnnouncement] = useState('');
  const [nameProblem, setNameProblem] = useState('');
  const describe = useDescribe();
  const byEui = useMemo(() => new Map(devices.map((d) => [d.devEUI, d])), [devices]);
  const ordered = readingOrder(state.widgets);
  const editing = form?.mode === 'change' ? state.widgets.find((w) => w.id === form.id) : undefined;
  const titleOf = (w: DashboardWidget) => w.title || defaultTitle(w, byEui, describe);
  /** Where a widget is, in words (screen readers hear it after each move). */
  const placeText = (w: DashboardWidget) => t('dashboards.editor.place', { x: w.x + 1, y: w.y + 1, w: w.w, h: w.h });

  const act = (action: EditorAction & { id: string }, what: 'moved' | 'resized') => {
    const next = editorReducer(state, action);
    dispatch(action);
    const moved = next.widgets.find((w) => w.id === action.id);
    if (moved) setAnnouncement(t(`dashboards.editor.${what}`, { title: titleOf(moved), place: placeText(moved) }));
  };
  const onKey = (w: DashboardWidget, event: KeyboardEvent) => {
    if (event.target !== event.currentTarget) return;
    const step: Record<string, [number, number]> = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    const d = step[event.key];
    if (!d) return;
    event.preventDefault();
    if (event.shiftKey) act({ type: 'resize', id: w.id, dw: d[0], dh: d[1] }, 'resized');
    else act({ type: 'move', id: w.id, dx: d[0], dy: d[1] }, 'moved');
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
    if (moved && (moved.x !== d.x0 || moved.y !== d.y0)) setAnnouncement(t('dashboards.editor.moved', { title: titleOf(moved), place: placeText(moved) }));
  };
  const save = (event: FormEvent) => {
    event.preventDefault();
    if (!state.name.trim()) {
      setNameProblem(t('dashboards.editor.nameMissing'));
      return;
    }
    setNameProblem('');
    onSave({ ...state, name: state.name.trim() });
  };

  return (
    <div className="dash-editor">
      <form className="card dash-editor-head" onSubmit={save} aria-label={t('dashboards.editor.settings')} noValidate>
        <div className="dash-editor-fields">
          <TextField
            label={t('dashboards.name')}
            value={state.name}
            maxLength={DASHBOARD_NAME_MAX_LENGTH}
            onChange={(e) => dispatch({ type: 'rename', name: e.target.value })}
            error={nameProblem || undefined}
          />
          {shareable ? (
            <SelectField
              label={t('dashboards.whoSees')}
              value={state.shared_role ?? 'private'}
              options={(['private', ...DASHBOARD_SHARE_ROLES] as const).map((r) => ({ value: r, label: t(`dashboards.share.${r}`) }))}
              onChange={(e) => dispatch({ type: 'share', role: e.target.value === 'private' ? null : (e.target.value as DashboardShareRole) })}
              hint={t('dashboards.editor.whoSeesHint')}
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
            <Plus aria-hidden size={16} /> {t('dashboards.editor.addWidget')}
          </button>
          <button type="submit" className="primary" disabled={saving || form !== null}>
            {t('dashboards.editor.save')}
          </button>
          <button type="button" className="ghost" onClick={onCancel}>
            {state.dirty ? t('dashboards.editor.discard') : t('dashboards.editor.done')}
          </button>
          {state.widgets.length >= DASHBOARD_MAX_WIDGETS ? (
            <span id="dash-full" className="muted small">
              {t('dashboards.editor.full', { max: DASHBOARD_MAX_WIDGETS })}
            </span>
          ) : null}
        </div>
        <ErrorBox error={error} />
        <p className="muted small">{t('dashboards.editor.help')}</p>
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
            setAnnouncement(form.mode === 'change' ? t('dashboards.editor.changed') : t('dashboards.editor.added', { kind: kindName(widget.kind) }));
            setForm(null);
          }}
        />
      ) : null}
      {ordered.length === 0 && !form ? <p className="empty">{t('dashboards.editor.empty')}</p> : null}
      <ul className="dash-grid dash-grid-edit" aria-label={t('dashboards.editor.widgets')} ref={grid}>
        {ordered.map((w) => (
          <li
            key={w.id}
            className="dash-widget dash-widget-edit"
            style={{ gridColumn: `${w.x + 1} / span ${w.w}`, gridRow: `${w.y + 1} / span ${w.h}` }}
            tabIndex={0}
            aria-label={t('dashboards.editor.widgetLabel', { kind: kindName(w.kind), title: titleOf(w), place: placeText(w) })}
            onKeyDown={(e) => onKey(w, e)}
          >
            <div
              className="dash-widget-head dash-drag"
              onPointerDown={(e) => startDrag(w, e)}
              onPointerMove={moveDrag}
              onPointerUp={endDrag}
              onPointerCancel={endDrag}
              title={t('dashboards.editor.drag')}
            >
              <GripVertical aria-hidden size={16} className="dash-grip" />
              <h3>{titleOf(w)}</h3>
              <span className="badge">{kindName(w.kind)}</span>
            </div>
            <p className="muted small dash-place">{t('dashboards.editor.placeShort', { x: w.x + 1, y: w.y + 1, w: w.w, h: w.h })}</p>
            <div className="dash-tools" role="group" aria-label={t('dashboards.editor.arrange', { title: titleOf(w) })}>
              {ARRANGE.map((tool) => (
                <button
                  key={tool.label}
                  type="button"
                  className="small"
                  onClick={() => act({ ...tool.action, id: w.id }, tool.action.type === 'move' ? 'moved' : 'resized')}
                  disabled={!tool.allowed(w)}
                  title={t(`dashboards.editor.${tool.label}`)}
                >
                  {tool.icons}
                  <span className="sr-only">{t(`dashboards.editor.${tool.label}`)}</span>
                </button>
              ))}
            </div>
            <div className="button-row">
              <button type="button" className="small" onClick={() => setForm({ mode: 'change', id: w.id })} disabled={form !== null}>
                <Pencil aria-hidden size={14} />{' '}
                <Trans t={t} i18nKey="dashboards.editor.change" values={{ title: titleOf(w) }} components={{ sr: <span className="sr-only" /> }} />
              </button>
              <button
                type="button"
                className="small danger"
                onClick={() => {
                  dispatch({ type: 'remove', id: w.id });
                  setAnnouncement(t('dashboards.editor.removed', { title: titleOf(w) }));
                }}
              >
                <Trash2 aria-hidden size={14} />{' '}
                <Trans t={t} i18nKey="dashboards.editor.remove" values={{ title: titleOf(w) }} components={{ sr: <span className="sr-only" /> }} />
              </button>
            </div>
          </li>
        ))}
      </ul>
    </div>
  );
}
