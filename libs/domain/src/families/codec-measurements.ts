import type { Measurements } from '../wire/measurements';
import { NO_MEASUREMENTS } from './decoder';

/*
 * How the members of a vendor codec's output become the service's measurements: one table, the
 * one docs/api.md §13 prints. Vendors name the same quantity many ways (`temperature`, `Temp`,
 * `TempC_SHT`, Decentlab's `{air_temperature: {value, unit}}`) and the same name can carry
 * different units (Milesight's `battery` is percent, others' is volts), so a member is read by
 * its name, its unit (a nested `unit`, or the name's suffix) and its value's range, never by its
 * name alone. Checked with the real codecs of test-data/lorawan-devices (codec-measurements.spec.ts).
 */

/** The unit a member's value is in; `by value` is the unqualified battery rule below. */
export type MemberUnit = '°C' | '%' | 'V' | 'mV' | 'by value' | '°' | 'm' | 'text';

export type MeasurementName = keyof Measurements;

export interface MemberRow {
  /** Names as they are compared: lower case, letters and digits only (`TempC_SHT` is `tempcsht`). */
  readonly names: readonly string[];
  /** The unit the name implies; a nested `unit` overrides it. */
  readonly unit: MemberUnit;
  /** The measurement it becomes; a battery member becomes volts or percent by its unit. */
  readonly measurement: 'temperature' | 'humidity' | 'battery' | 'lat' | 'lon' | 'alt' | 'firmware_version';
}

const BATTERY = ['battery', 'bat', 'batt', 'vbat'];
const suffixed = (suffixes: readonly string[]) => BATTERY.flatMap((base) => suffixes.map((s) => base + s));

/**
 * The table, in order of preference: the first member of the output that a row names and whose
 * value passes the checks gives that measurement. TTN's normalized payload (`normalizeUplink`),
 * when the codec has one, is read before the codec's own data (NORMALIZED below).
 */
export const CODEC_MEMBER_TABLE: readonly MemberRow[] = [
  // Dragino LHT65's internal sensor (TempC_SHT) before its external probe (TempC_DS).
  {
    measurement: 'temperature',
    unit: '°C',
    names: ['temperature', 'temp', 'tempc', 'tempcsht', 'airtemperature', 'ambienttemperature', 'temperaturec', 'tempcds'],
  },
  { measurement: 'humidity', unit: '%', names: ['humidity', 'relativehumidity', 'hum', 'humi', 'humsht', 'airhumidity', 'rh'] },
  { measurement: 'battery', unit: 'V', names: [...suffixed(['voltage', 'volt', 'volts', 'v']), 'voltage', 'volt', 'vdd'] },
  { measurement: 'battery', unit: 'mV', names: suffixed(['mv', 'millivolts', 'voltagemv']) },
  { measurement: 'battery', unit: '%', names: suffixed(['percent', 'percentage', 'pct', 'perc', 'level', 'soc']) },
  { measurement: 'battery', unit: 'by value', names: BATTERY },
  { measurement: 'lat', unit: '°', names: ['lat', 'latitude'] },
  { measurement: 'lon', unit: '°', names: ['lon', 'lng', 'long', 'longitude'] },
  { measurement: 'alt', unit: 'm', names: ['alt', 'altitude'] },
  { measurement: 'firmware_version', unit: 'text', names: ['firmwareversion', 'firmware', 'fwversion', 'fw'] },
];

/** Members of TTN's normalized payload schema the service has a measurement for. */
export const NORMALIZED: readonly { path: readonly string[]; row: MemberRow }[] = [
  { path: ['air', 'temperature'], row: { measurement: 'temperature', unit: '°C', names: [] } },
  { path: ['air', 'relativeHumidity'], row: { measurement: 'humidity', unit: '%', names: [] } },
  // TTN's schema says volts, but real codecs put their percent there (Milesight EM300-TH puts its
  // `battery` 50 %): read by value, as an unqualified battery member.
  { path: ['battery'], row: { measurement: 'battery', unit: 'by value', names: [] } },
];

/** Plausible values, after conversion: outside them a member is not that measurement. */
export const RANGES = {
  temperature: [-90, 150],
  humidity: [0, 100],
  battery_voltage: [0.5, 60],
  battery_percent: [0, 100],
  lat: [-90, 90],
  lon: [-180, 180],
  alt: [-1000, 100_000],
} as const;

const fold = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, '');

/** A nested member's unit, as the table's units; undefined when it names none, null when it names another. */
function unitOf(text: unknown): MemberUnit | null | undefined {
  if (typeof text !== 'string' || text.trim() === '') return undefined;
  const t = text.trim();
  if (/^(°\s?C|C|degC|celsius)$/i.test(t)) return '°C';
  if (t === '%' || /^(%RH|percent)$/i.test(t)) return '%';
  if (t === 'V' || /^volts?$/i.test(t)) return 'V';
  if (/^mV$/i.test(t) || /^millivolts?$/i.test(t)) return 'mV';
  return null;
}

/**
 * A number, or a string that is a number with at most a remark in brackets: Netvox's codec turns
 * `Volt` into "3.2(low battery)" exactly when the value matters. "80-100%" is no number.
 */
function numberOf(v: unknown): number | null {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v !== 'string') return null;
  const m = /^\s*(-?\d+(?:\.\d+)?)\s*(?:\([^()]*\))?\s*$/.exec(v);
  return m ? Number(m[1]) : null;
}

const within = (v: number, [min, max]: readonly [number, number]) => v >= min && v <= max;

/**
 * An unqualified battery value (no unit in its name or beside it), read by its range: 500 and over
 * is millivolts, an integer up to 100 is percent, a fraction up to 20 is volts, one above up to 100
 * percent. An integer battery voltage (3) reads as percent: codecs that mean volts say so with a
 * fraction or a unit.
 */
function batteryByValue(v: number): { measurement: 'battery_voltage' | 'battery_percent'; value: number } | null {
  if (v >= 500) return { measurement: 'battery_voltage', value: v / 1000 };
  if (Number.isInteger(v)) return v >= 0 && v <= 100 ? { measurement: 'battery_percent', value: v } : null;
  if (v > 0 && v <= 20) return { measurement: 'battery_voltage', value: v };
  return v > 20 && v <= 100 ? { measurement: 'battery_percent', value: v } : null;
}

/** What one member gives under one row, after its unit and range are checked; null when nothing. */
function read(row: MemberRow, member: unknown): { measurement: MeasurementName; value: number | string } | null {
  let raw = member;
  let unit: MemberUnit | null = row.unit;
  // Decentlab and others: {value, unit, displayName}.
  if (typeof member === 'object' && member !== null && !Array.isArray(member) && 'value' in member) {
    raw = (member as { value: unknown }).value;
    const nested = unitOf((member as { unit?: unknown }).unit);
    if (nested === null) return null;
    if (nested !== undefined) unit = nested;
  }
  if (row.measurement === 'firmware_version')
    return typeof raw === 'string' && raw.trim() !== '' ? { measurement: 'firmware_version', value: raw.slice(0, 64) } : null;
  const n = numberOf(raw);
  if (n === null) return null;
  if (row.measurement === 'battery') {
    const got =
      unit === 'V'
        ? // No battery reaches 500 V: a "voltage" that large is in millivolts.
          { measurement: 'battery_voltage' as const, value: n >= 500 ? n / 1000 : n }
        : unit === 'mV'
          ? { measurement: 'battery_voltage' as const, value: n / 1000 }
          : unit === '%'
            ? { measurement: 'battery_percent' as const, value: n }
            : unit === 'by value'
              ? batteryByValue(n)
              : null;
    return got && within(got.value, RANGES[got.measurement]) ? got : null;
  }
  // The other rows' units are their measurements' own; a nested unit that differs was refused above.
  if (unit !== row.unit) return null;
  return within(n, RANGES[row.measurement]) ? { measurement: row.measurement, value: n } : null;
}

function at(object: unknown, path: readonly string[]): unknown {
  let v = object;
  for (const key of path) {
    if (typeof v !== 'object' || v === null || Array.isArray(v) || !Object.prototype.hasOwnProperty.call(v, key)) return undefined;
    v = (v as Record<string, unknown>)[key];
  }
  return v;
}

/** The first object of a normalized payload's `data` (an object, or a list of measurements). */
function normalizedData(normalized: unknown): Record<string, unknown> | null {
  const data = at(normalized, ['data']);
  const first = Array.isArray(data) ? data[0] : data;
  return typeof first === 'object' && first !== null && !Array.isArray(first) ? (first as Record<string, unknown>) : null;
}

/**
 * The measurements of a codec's output: `data` (what decodeUplink returned) read through
 * CODEC_MEMBER_TABLE, and before it the normalized payload (what normalizeUplink returned for that
 * data), when the codec has one.
 */
export function measurementsFrom(data: Record<string, unknown>, normalized?: unknown): Measurements {
  const out: Measurements = { ...NO_MEASUREMENTS };
  const put = (got: ReturnType<typeof read>) => {
    if (got && out[got.measurement] === null) (out as unknown as Record<string, unknown>)[got.measurement] = got.value;
  };
  const norm = normalizedData(normalized);
  if (norm) for (const { path, row } of NORMALIZED) put(read(row, at(norm, path)));
  // Member names folded once; the first member of a folded name is the one read.
  const members = new Map<string, unknown>();
  for (const [name, value] of Object.entries(data)) if (!members.has(fold(name))) members.set(fold(name), value);
  for (const row of CODEC_MEMBER_TABLE) for (const name of row.names) if (members.has(name)) put(read(row, members.get(name)));
  // A position is both coordinates or none; its altitude only with it.
  if (out.lat === null || out.lon === null) Object.assign(out, { lat: null, lon: null, alt: null });
  return out;
}
