import {
  DASHBOARD_ALERT_STATES,
  DASHBOARD_CHART_LINES_MAX,
  DASHBOARD_CHART_MEMBERS_MAX,
  DASHBOARD_MEMBER_PATTERN,
  DASHBOARD_PERIODS,
  DASHBOARD_TITLE_MAX_LENGTH,
  DASHBOARD_WIDGET_DEVICES_MAX,
  DASHBOARD_WIDGET_KINDS,
  type DashboardAlertState,
  type DashboardPeriod,
  type DashboardWidgetKind,
  type DeviceMetaWire,
} from '@dts/domain';
import { type FormEvent, useId, useMemo, useState } from 'react';
import { SelectField, TextField } from '../../components/form';
import { useLiveRowsOf } from '../../hooks/dashboards';
import { useDatamodel } from '../../hooks/datamodel';
import { numericMembers } from '../../lib/dashboard-data';
import { i18n, useTranslation } from '../../i18n';
import { kindName, type WidgetContent } from '../../lib/dashboard-layout';

/** What a widget says, as the form holds it (text as typed). */
export interface WidgetDraft {
  kind: DashboardWidgetKind;
  title: string;
  devices: string[];
  members: string[];
  /** A chart's further data types, typed, separated by commas. */
  otherMembers: string;
  member: string;
  period: DashboardPeriod;
  min: string;
  max: string;
  state: DashboardAlertState;
}

export function toDraft(widget?: WidgetContent, kind: DashboardWidgetKind = 'latest'): WidgetDraft {
  const draft: WidgetDraft = {
    kind: widget?.kind ?? kind,
    title: widget?.title ?? '',
    devices: [],
    members: [],
    otherMembers: '',
    member: '',
    period: '24h',
    min: '0',
    max: '100',
    state: 'active',
  };
  if (!widget) return draft;
  switch (widget.kind) {
    case 'chart':
      return { ...draft, devices: widget.options.devices, members: widget.options.members, period: widget.options.period };
    case 'latest':
      return { ...draft, devices: [widget.options.device], member: widget.options.member };
    case 'gauge':
      return { ...draft, devices: [widget.options.device], member: widget.options.member, min: String(widget.options.min), max: String(widget.options.max) };
    case 'map':
      return { ...draft, devices: widget.options.devices, period: widget.options.period };
    case 'alerts':
      return { ...draft, devices: widget.options.devices, state: widget.options.state };
  }
}

/** The widget the draft describes, or what is missing, by the form's field (the service checks the same again). */
export function fromDraft(d: WidgetDraft): { widget: WidgetContent } | { problems: Record<string, string> } {
  const problems: Record<string, string> = {};
  const title = d.title.trim() || null;
  const single = d.kind === 'latest' || d.kind === 'gauge';
  if (single && d.devices.length !== 1) problems['devices'] = i18n.t('dashboards.form.problems.device');
  if ((d.kind === 'chart' || d.kind === 'map') && d.devices.length === 0) problems['devices'] = i18n.t('dashboards.form.problems.devices');
  const others = d.otherMembers
    .split(',')
    .map((m) => m.trim())
    .filter(Boolean);
  const members = [...new Set([...d.members, ...others])];
  if (d.kind === 'chart') {
    if (members.length === 0) problems['members'] = i18n.t('dashboards.form.problems.members');
    else if (others.some((m) => !DASHBOARD_MEMBER_PATTERN.test(m))) problems['members'] = i18n.t('dashboards.form.problems.memberName');
    else if (members.length > DASHBOARD_CHART_MEMBERS_MAX)
      problems['members'] = i18n.t('dashboards.form.problems.membersMax', { max: DASHBOARD_CHART_MEMBERS_MAX });
    else if (members.length * d.devices.length > DASHBOARD_CHART_LINES_MAX)
      problems['members'] = i18n.t('dashboards.form.problems.linesMax', { max: DASHBOARD_CHART_LINES_MAX });
  }
  const member = d.member.trim();
  if (single && !DASHBOARD_MEMBER_PATTERN.test(member)) problems['member'] = i18n.t('dashboards.form.problems.member');
  const min = Number(d.min);
  const max = Number(d.max);
  if (d.kind === 'gauge') {
    if (d.min.trim() === '' || !Number.isFinite(min)) problems['min'] = i18n.t('dashboards.form.problems.min');
    if (d.max.trim() === '' || !Number.isFinite(max)) problems['max'] = i18n.t('dashboards.form.problems.max');
    else if (Number.isFinite(min) && max <= min) problems['max'] = i18n.t('dashboards.form.problems.maxAboveMin');
  }
  if (Object.keys(problems).length > 0) return { problems };
  switch (d.kind) {
    case 'chart':
      return { widget: { kind: 'chart', title, options: { devices: d.devices, members, period: d.period } } };
    case 'latest':
      return { widget: { kind: 'latest', title, options: { device: d.devices[0]!, member } } };
    case 'gauge':
      return { widget: { kind: 'gauge', title, options: { device: d.devices[0]!, member, min, max } } };
    case 'map':
      return { widget: { kind: 'map', title, options: { devices: d.devices, period: d.period } } };
    case 'alerts':
      return { widget: { kind: 'alerts', title, options: { devices: d.devices, state: d.state } } };
  }
}

/** The devices to choose from: a filter and a check box each (a radio each where the widget takes one). */
function DevicePicker({
  devices,
  chosen,
  single,
  optional,
  error,
  onChange,
}: {
  devices: readonly DeviceMetaWire[];
  chosen: string[];
  single: boolean;
  optional: boolean;
  error?: string;
  onChange: (euis: string[]) => void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const [filter, setFilter] = useState('');
  const needle = filter.trim().toLowerCase();
  const shown = devices.filter((d) => !needle || d.label.toLowerCase().includes(needle) || d.devEUI.toLowerCase().includes(needle)).slice(0, 200);
  const full = chosen.length >= DASHBOARD_WIDGET_DEVICES_MAX;
  return (
    <fieldset className="dash-devices" aria-describedby={error ? `${id}-error` : undefined} aria-invalid={error ? true : undefined}>
      <legend>
        {single
          ? t('dashboards.form.device')
          : optional
            ? t('dashboards.form.devicesAny')
            : t('dashboards.form.devicesUpTo', { max: DASHBOARD_WIDGET_DEVICES_MAX })}
      </legend>
      {devices.length > 8 ? (
        <input
          type="search"
          aria-label={t('dashboards.form.filter')}
          placeholder={t('dashboards.form.filterPlaceholder')}
          value={filter}
          onChange={(e) => setFilter(e.target.value)}
        />
      ) : null}
      <div className="dash-device-list">
        {devices.length === 0 ? <p className="empty">{t('dashboards.form.noDevices')}</p> : null}
        {shown.map((d) => {
          const on = chosen.includes(d.devEUI);
          return (
            <label key={d.devEUI} className="check">
              <input
                type={single ? 'radio' : 'checkbox'}
                name={single ? `${id}-device` : undefined}
                checked={on}
                disabled={!single && !on && full}
                onChange={() => onChange(single ? [d.devEUI] : on ? chosen.filter((e) => e !== d.devEUI) : [...chosen, d.devEUI])}
              />{' '}
              {d.label || d.devEUI} <span className="mono muted small">{d.devEUI}</span>
            </label>
          );
        })}
      </div>
      {error ? (
        <small id={`${id}-error`} className="field-error">
          {error}
        </small>
      ) : null}
    </fieldset>
  );
}

/**
 * Adding or changing one widget: its kind (when added), title, devices and what it shows. The
 * measurements offered are those the chosen devices' latest uplinks carry; a chart takes data types
 * (what the series route draws), a tile or gauge any number of the decoded payload too.
 */
export function WidgetForm({
  initial,
  devices,
  onDone,
  onCancel,
}: {
  initial?: WidgetContent & { id: string };
  devices: readonly DeviceMetaWire[];
  onDone: (widget: WidgetContent) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState<WidgetDraft>(() => toDraft(initial));
  const [problems, setProblems] = useState<Record<string, string>>({});
  const dataTypes = useDatamodel().data?.data_types;
  const rows = useLiveRowsOf(draft.devices);
  const carried = useMemo(() => [...new Set(rows.flatMap((r) => numericMembers(r.data ?? [])))], [rows]);
  const aliases = new Set((dataTypes ?? []).map((t) => t.alias));
  const labelOf = (m: string) => dataTypes?.find((t) => t.alias === m)?.label ?? m;
  const chartable = [...new Set([...carried.filter((m) => aliases.has(m)), ...draft.members])];
  const set = (change: Partial<WidgetDraft>) => setDraft((d) => ({ ...d, ...change }));
  const single = draft.kind === 'latest' || draft.kind === 'gauge';
  const listId = useId();
  const heading = initial
    ? initial.title
      ? t('dashboards.form.changeTitled', { title: initial.title })
      : t(`dashboards.form.changeKind.${initial.kind}`)
    : t('dashboards.form.add');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const result = fromDraft(draft);
    if ('problems' in result) setProblems(result.problems);
    else onDone(result.widget);
  };

  return (
    <section className="card dash-widget-form" aria-labelledby={`${listId}-heading`}>
      <h2 id={`${listId}-heading`}>{heading}</h2>
      <form onSubmit={submit} noValidate>
        {initial ? null : (
          <fieldset className="segmented dash-kinds">
            <legend>{t('dashboards.form.kind')}</legend>
            {DASHBOARD_WIDGET_KINDS.map((k) => (
              <label key={k} className={draft.kind === k ? 'active' : undefined}>
                <input
                  type="radio"
                  name={`${listId}-kind`}
                  value={k}
                  checked={draft.kind === k}
                  onChange={() => set({ kind: k, devices: draft.devices.slice(0, k === 'latest' || k === 'gauge' ? 1 : undefined) })}
                />
                {kindName(k)}
              </label>
            ))}
          </fieldset>
        )}
        <p className="muted small">{t(`dashboards.form.kindHints.${draft.kind}`)}</p>
        <TextField
          label={t('dashboards.form.title')}
          value={draft.title}
          maxLength={DASHBOARD_TITLE_MAX_LENGTH}
          onChange={(e) => set({ title: e.target.value })}
          hint={t('dashboards.form.titleHint')}
        />
        <DevicePicker
          devices={devices}
          chosen={draft.devices}
          single={single}
          optional={draft.kind === 'alerts'}
          error={problems['devices']}
          onChange={(euis) => set({ devices: euis })}
        />
        {draft.kind === 'chart' ? (
          <fieldset className="dash-members" aria-invalid={problems['members'] ? true : undefined}>
            <legend>{t('dashboards.form.measurements')}</legend>
            {chartable.length === 0 ? (
              <p className="muted small">{draft.devices.length === 0 ? t('dashboards.form.chooseDeviceFirst') : t('dashboards.form.noDataType')}</p>
            ) : null}
            {chartable.map((m) => (
              <label key={m} className="check">
                <input
                  type="checkbox"
                  checked={draft.members.includes(m)}
                  onChange={() => set({ members: draft.members.includes(m) ? draft.members.filter((x) => x !== m) : [...draft.members, m] })}
                />{' '}
                {labelOf(m)}
              </label>
            ))}
            <TextField
              label={t('dashboards.form.otherTypes')}
              value={draft.otherMembers}
              onChange={(e) => set({ otherMembers: e.target.value })}
              hint={t('dashboards.form.otherTypesHint')}
              error={problems['members']}
            />
          </fieldset>
        ) : null}
        {single ? (
          <>
            <TextField
              label={t('dashboards.form.measurement')}
              value={draft.member}
              list={`${listId}-members`}
              onChange={(e) => set({ member: e.target.value })}
              hint={carried.length > 0 ? t('dashboards.form.carried', { members: carried.map(labelOf).join(', ') }) : t('dashboards.form.measurementHint')}
              error={problems['member']}
            />
            <datalist id={`${listId}-members`}>
              {carried.map((m) => (
                <option key={m} value={m}>
                  {labelOf(m)}
                </option>
              ))}
            </datalist>
          </>
        ) : null}
        {draft.kind === 'gauge' ? (
          <div className="dash-range">
            <TextField
              label={t('dashboards.form.lowest')}
              inputMode="decimal"
              value={draft.min}
              onChange={(e) => set({ min: e.target.value })}
              error={problems['min']}
            />
            <TextField
              label={t('dashboards.form.highest')}
              inputMode="decimal"
              value={draft.max}
              onChange={(e) => set({ max: e.target.value })}
              error={problems['max']}
            />
          </div>
        ) : null}
        {draft.kind === 'chart' || draft.kind === 'map' ? (
          <SelectField
            label={t('dashboards.form.period')}
            value={draft.period}
            options={DASHBOARD_PERIODS.map((p) => ({ value: p, label: t('dashboards.form.periodOption', { period: p }) }))}
            onChange={(e) => set({ period: e.target.value as DashboardPeriod })}
          />
        ) : null}
        {draft.kind === 'alerts' ? (
          <SelectField
            label={t('dashboards.form.whichAlerts')}
            value={draft.state}
            options={DASHBOARD_ALERT_STATES.map((s) => ({ value: s, label: t(`dashboards.form.alertStates.${s}`) }))}
            onChange={(e) => set({ state: e.target.value as DashboardAlertState })}
          />
        ) : null}
        <div className="button-row">
          <button type="submit" className="primary">
            {initial ? t('dashboards.form.apply') : t('dashboards.form.addToDashboard')}
          </button>
          <button type="button" onClick={onCancel}>
            {t('common.cancel')}
          </button>
        </div>
      </form>
    </section>
  );
}
