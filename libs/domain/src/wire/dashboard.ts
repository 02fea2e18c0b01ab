import { normalizeEui } from '../eui';
import type { OrgRole } from './organisation';

/**
 * Dashboards (docs/api.md §21): a person's arrangement of widgets over the account's devices, in a
 * grid of 12 columns, private to its maker or shared with the organisation's members of at least a
 * role. The layout is the stored truth: the console places each widget at (x, y) with its size, so
 * two widgets never overlap (refused here, not repaired on read).
 */
export const DASHBOARD_WIDGET_KINDS = ['chart', 'latest', 'map', 'alerts', 'gauge'] as const;
export type DashboardWidgetKind = (typeof DASHBOARD_WIDGET_KINDS)[number];

/** Who besides its maker sees a dashboard: members with at least this role; null: its maker only. */
export const DASHBOARD_SHARE_ROLES = ['viewer', 'operator', 'admin'] as const satisfies readonly OrgRole[];
export type DashboardShareRole = (typeof DASHBOARD_SHARE_ROLES)[number];

/** The time a chart or a map's tracks look back over. */
export const DASHBOARD_PERIODS = ['1h', '6h', '24h', '7d', '30d'] as const;
export type DashboardPeriod = (typeof DASHBOARD_PERIODS)[number];
export const DASHBOARD_PERIOD_SECONDS: Record<DashboardPeriod, number> = { '1h': 3_600, '6h': 21_600, '24h': 86_400, '7d': 604_800, '30d': 2_592_000 };

export const DASHBOARD_ALERT_STATES = ['active', 'all'] as const;
export type DashboardAlertState = (typeof DASHBOARD_ALERT_STATES)[number];

export const DASHBOARD_COLUMNS = 12;
/** Rows a dashboard may reach down to (a widget's y + h). */
export const DASHBOARD_ROWS_MAX = 200;
export const DASHBOARD_WIDGET_HEIGHT_MAX = 12;
export const DASHBOARD_NAME_MAX_LENGTH = 100;
export const DASHBOARD_TITLE_MAX_LENGTH = 100;
export const DASHBOARD_MAX_WIDGETS = 40;
export const MAX_DASHBOARDS_PER_ACCOUNT = 200;
/** Devices a chart, map or alert list follows; a chart draws at most DASHBOARD_CHART_LINES_MAX device × member lines. */
export const DASHBOARD_WIDGET_DEVICES_MAX = 12;
export const DASHBOARD_CHART_MEMBERS_MAX = 6;
export const DASHBOARD_CHART_LINES_MAX = 12;
export const DASHBOARD_WIDGET_ID_PATTERN = /^[A-Za-z0-9_-]{1,40}$/;
/** A measurement of the data table (temperature, battery_voltage, …) or a number in payload_decoded, as the series route takes them. */
export const DASHBOARD_MEMBER_PATTERN = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

export interface ChartWidgetOptions {
  devices: string[];
  members: string[];
  period: DashboardPeriod;
}
export interface LatestWidgetOptions {
  device: string;
  member: string;
}
export interface MapWidgetOptions {
  devices: string[];
  period: DashboardPeriod;
}
export interface AlertsWidgetOptions {
  /** Empty: every device of the account. */
  devices: string[];
  state: DashboardAlertState;
}
export interface GaugeWidgetOptions {
  device: string;
  member: string;
  min: number;
  max: number;
}

export interface DashboardWidgetOptionsByKind {
  chart: ChartWidgetOptions;
  latest: LatestWidgetOptions;
  map: MapWidgetOptions;
  alerts: AlertsWidgetOptions;
  gauge: GaugeWidgetOptions;
}

interface WidgetOf<K extends DashboardWidgetKind> {
  /** Chosen by the client, unique within the dashboard (the console's key for it). */
  id: string;
  kind: K;
  title: string | null;
  x: number;
  y: number;
  w: number;
  h: number;
  options: DashboardWidgetOptionsByKind[K];
}
export type DashboardWidget = { [K in DashboardWidgetKind]: WidgetOf<K> }[DashboardWidgetKind];

export interface DashboardWire {
  uid: number;
  name: string;
  widgets: DashboardWidget[];
  shared_role: DashboardShareRole | null;
  /** The maker's username; null once their account is gone. */
  created_by: string | null;
  /** Whether the caller may change and delete it: its maker, or an admin of the organisation (shared ones). */
  editable: boolean;
  created_unix: number;
  updated_unix: number;
}

export interface CreateDashboardRequest {
  name: string;
  widgets?: DashboardWidget[];
  shared_role?: DashboardShareRole | null;
}
export type UpdateDashboardRequest = Partial<CreateDashboardRequest>;

export interface DashboardProblem {
  field: string;
  message: string;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v);

const OPTION_MEMBERS: Record<DashboardWidgetKind, readonly string[]> = {
  chart: ['devices', 'members', 'period'],
  latest: ['device', 'member'],
  map: ['devices', 'period'],
  alerts: ['devices', 'state'],
  gauge: ['device', 'member', 'min', 'max'],
};
const WIDGET_MEMBERS = ['id', 'kind', 'title', 'x', 'y', 'w', 'h', 'options'];

/** Every EUI a widget names, each with the field that names it (for the service's visibility check). */
export function widgetDevices(widget: DashboardWidget, index: number): { eui: string; field: string }[] {
  const o = widget.options as unknown as Obj;
  if (typeof o['device'] === 'string') return [{ eui: o['device'], field: `widgets.${index}.options.device` }];
  const list = Array.isArray(o['devices']) ? (o['devices'] as string[]) : [];
  return list.map((eui) => ({ eui, field: `widgets.${index}.options.devices` }));
}

function euiList(value: unknown, field: string, min: number, problems: DashboardProblem[]): string[] | null {
  if (!Array.isArray(value)) return (problems.push({ field, message: `${field} must be an array of device EUIs` }), null);
  if (value.length < min) return (problems.push({ field, message: `${field} needs at least ${min} device` }), null);
  if (value.length > DASHBOARD_WIDGET_DEVICES_MAX)
    return (problems.push({ field, message: `${field} holds at most ${DASHBOARD_WIDGET_DEVICES_MAX} devices` }), null);
  const out: string[] = [];
  for (const v of value) {
    const eui = normalizeEui(v);
    if (!eui) return (problems.push({ field, message: `${field} must hold device EUIs (16 hex digits)` }), null);
    if (out.includes(eui)) return (problems.push({ field, message: `${field} names ${eui} twice` }), null);
    out.push(eui);
  }
  return out;
}

function member(value: unknown, field: string, problems: DashboardProblem[]): string | null {
  if (typeof value !== 'string' || !DASHBOARD_MEMBER_PATTERN.test(value)) {
    problems.push({ field, message: `${field} must be a measurement name (letters, digits, _)` });
    return null;
  }
  return value;
}

function finite(value: unknown, field: string, problems: DashboardProblem[]): number | null {
  if (typeof value !== 'number' || !Number.isFinite(value)) return (problems.push({ field, message: `${field} must be a number` }), null);
  return value;
}

function oneOf<T extends string>(value: unknown, allowed: readonly T[], field: string, problems: DashboardProblem[]): T | null {
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
    problems.push({ field, message: `${field} must be one of ${allowed.join(', ')}` });
    return null;
  }
  return value as T;
}

function options(kind: DashboardWidgetKind, value: unknown, at: string, problems: DashboardProblem[]): DashboardWidget['options'] | null {
  if (!isObj(value)) return (problems.push({ field: at, message: `${at} must be an object` }), null);
  const allowed = OPTION_MEMBERS[kind];
  const extra = Object.keys(value).find((k) => !allowed.includes(k));
  if (extra !== undefined) return (problems.push({ field: `${at}.${extra}`, message: `${extra} is not an option of a ${kind} widget` }), null);
  const before = problems.length;
  switch (kind) {
    case 'chart': {
      const devices = euiList(value['devices'], `${at}.devices`, 1, problems);
      const members: string[] = [];
      if (!Array.isArray(value['members']) || value['members'].length === 0 || value['members'].length > DASHBOARD_CHART_MEMBERS_MAX) {
        problems.push({ field: `${at}.members`, message: `${at}.members must hold 1 to ${DASHBOARD_CHART_MEMBERS_MAX} measurement names` });
      } else {
        for (const m of value['members'] as unknown[]) {
          const name = member(m, `${at}.members`, problems);
          if (name === null) break;
          if (members.includes(name)) {
            problems.push({ field: `${at}.members`, message: `${at}.members names ${name} twice` });
            break;
          }
          members.push(name);
        }
      }
      const period = oneOf(value['period'], DASHBOARD_PERIODS, `${at}.period`, problems);
      if (devices && members.length * devices.length > DASHBOARD_CHART_LINES_MAX) {
        problems.push({ field: `${at}.members`, message: `a chart draws at most ${DASHBOARD_CHART_LINES_MAX} lines (devices × measurements)` });
      }
      return problems.length > before ? null : { devices: devices!, members, period: period! };
    }
    case 'latest':
    case 'gauge': {
      const device = normalizeEui(value['device']);
      if (!device) problems.push({ field: `${at}.device`, message: `${at}.device must be a device EUI (16 hex digits)` });
      const m = member(value['member'], `${at}.member`, problems);
      if (kind === 'latest') return problems.length > before ? null : { device: device!, member: m! };
      const min = finite(value['min'], `${at}.min`, problems);
      const max = finite(value['max'], `${at}.max`, problems);
      if (min !== null && max !== null && !(max > min)) problems.push({ field: `${at}.max`, message: `${at}.max must be greater than min` });
      return problems.length > before ? null : { device: device!, member: m!, min: min!, max: max! };
    }
    case 'map': {
      const devices = euiList(value['devices'], `${at}.devices`, 1, problems);
      const period = oneOf(value['period'], DASHBOARD_PERIODS, `${at}.period`, problems);
      return problems.length > before ? null : { devices: devices!, period: period! };
    }
    case 'alerts': {
      const devices = euiList(value['devices'] ?? [], `${at}.devices`, 0, problems);
      const state = oneOf(value['state'], DASHBOARD_ALERT_STATES, `${at}.state`, problems);
      return problems.length > before ? null : { devices: devices!, state: state! };
    }
  }
}

const overlaps = (a: DashboardWidget, b: DashboardWidget) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;

/**
 * The widgets checked strictly and normalised (EUIs in upper case without separators), or every
 * problem found, each naming its field as `widgets.<index>.<member>`. Whether the devices are the
 * account's is the service's to say.
 */
export function checkDashboardWidgets(value: unknown): { widgets: DashboardWidget[]; problems: DashboardProblem[] } {
  const problems: DashboardProblem[] = [];
  if (!Array.isArray(value)) return { widgets: [], problems: [{ field: 'widgets', message: 'widgets must be an array' }] };
  if (value.length > DASHBOARD_MAX_WIDGETS)
    return { widgets: [], problems: [{ field: 'widgets', message: `a dashboard holds at most ${DASHBOARD_MAX_WIDGETS} widgets` }] };
  const widgets: DashboardWidget[] = [];
  value.forEach((raw: unknown, i) => {
    const at = `widgets.${i}`;
    if (!isObj(raw)) return void problems.push({ field: at, message: `${at} must be an object` });
    const extra = Object.keys(raw).find((k) => !WIDGET_MEMBERS.includes(k));
    if (extra !== undefined) return void problems.push({ field: `${at}.${extra}`, message: `${extra} is not a member of a widget` });
    const before = problems.length;
    const id = raw['id'];
    if (typeof id !== 'string' || !DASHBOARD_WIDGET_ID_PATTERN.test(id))
      problems.push({ field: `${at}.id`, message: `${at}.id must be 1 to 40 letters, digits, _ or -` });
    else if (widgets.some((w) => w.id === id)) problems.push({ field: `${at}.id`, message: `${at}.id repeats the id ${id}` });
    const kind = oneOf(raw['kind'], DASHBOARD_WIDGET_KINDS, `${at}.kind`, problems);
    const title = raw['title'] ?? null;
    if (title !== null && (typeof title !== 'string' || title.length > DASHBOARD_TITLE_MAX_LENGTH)) {
      problems.push({ field: `${at}.title`, message: `${at}.title must be text of at most ${DASHBOARD_TITLE_MAX_LENGTH} characters, or null` });
    }
    const x = raw['x'];
    const y = raw['y'];
    const w = raw['w'];
    const h = raw['h'];
    if (!isInt(w) || w < 1 || w > DASHBOARD_COLUMNS)
      problems.push({ field: `${at}.w`, message: `${at}.w must be a whole number of columns within 1..${DASHBOARD_COLUMNS}` });
    if (!isInt(h) || h < 1 || h > DASHBOARD_WIDGET_HEIGHT_MAX)
      problems.push({ field: `${at}.h`, message: `${at}.h must be a whole number of rows within 1..${DASHBOARD_WIDGET_HEIGHT_MAX}` });
    if (!isInt(x) || x < 0 || x > DASHBOARD_COLUMNS - (isInt(w) && w >= 1 ? w : 1)) {
      problems.push({ field: `${at}.x`, message: `${at}.x must be a column within 0..${DASHBOARD_COLUMNS - 1} that leaves room for the widget's width` });
    }
    if (!isInt(y) || y < 0 || y > DASHBOARD_ROWS_MAX - (isInt(h) && h >= 1 ? h : 1)) {
      problems.push({ field: `${at}.y`, message: `${at}.y must be a row within 0..${DASHBOARD_ROWS_MAX - 1} that leaves room for the widget's height` });
    }
    const opts = kind === null ? null : options(kind, raw['options'], `${at}.options`, problems);
    if (problems.length > before || kind === null || opts === null) return;
    const widget = { id, kind, title: title === '' ? null : title, x, y, w, h, options: opts } as DashboardWidget;
    const hit = widgets.find((other) => overlaps(other, widget));
    if (hit) return void problems.push({ field: `${at}.y`, message: `${at} overlaps the widget ${hit.id}` });
    widgets.push(widget);
  });
  return { widgets, problems };
}
