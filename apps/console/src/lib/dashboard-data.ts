import type { SeriesWire, UplinkRecordWire } from '@dts/domain';

/** Measurements of the data table a widget offers first, in this order. */
const COLUMNS = ['temperature', 'humidity', 'battery_percent', 'battery_voltage', 'ALT'] as const;

/**
 * The numeric members a device's latest uplinks carry: the data table's measurements, then the
 * numbers of payload_decoded (what the series route takes), in the order first seen.
 */
export function numericMembers(rows: readonly UplinkRecordWire[]): string[] {
  const found = new Set<string>();
  for (const row of rows) {
    for (const c of COLUMNS) if (typeof row[c] === 'number') found.add(c);
  }
  for (const row of rows) {
    for (const [k, v] of Object.entries(row.payload_decoded ?? {})) if (typeof v === 'number' && /^[A-Za-z_][A-Za-z0-9_]{0,63}$/.test(k)) found.add(k);
  }
  return [...found];
}

/** The newest value of a member in uplink rows (newest first): the data table's column, else the decoded payload's number. */
export function latestValue(rows: readonly UplinkRecordWire[], member: string): { value: number; at: number } | null {
  for (const row of rows) {
    const column = (row as unknown as Record<string, unknown>)[member];
    const value = typeof column === 'number' ? column : row.payload_decoded?.[member];
    if (typeof value === 'number' && Number.isFinite(value)) return { value, at: row.uplink.time_stamp_unix };
  }
  return null;
}

/** The key of one line of a chart of several devices: the device and the member. */
export const lineKey = (eui: string, member: string) => `${eui}.${member}`;

/**
 * Several devices' series over the same range as one, each member renamed to its line's key
 * (lineKey), the buckets the union of theirs: one chart draws every device × member line. The
 * series route buckets by the range alone, so equal ranges give equal intervals and aligned buckets.
 */
export function mergeSeries(parts: readonly { eui: string; series: SeriesWire }[]): SeriesWire | null {
  const first = parts[0]?.series;
  if (!first) return null;
  const t = [...new Set(parts.flatMap((p) => p.series.t))].sort((a, b) => a - b);
  const at = new Map(t.map((time, i) => [time, i]));
  const members: SeriesWire['members'] = {};
  for (const { eui, series } of parts) {
    for (const [member, aggregates] of Object.entries(series.members)) {
      const out: SeriesWire['members'][string] = {};
      for (const [agg, values] of Object.entries(aggregates) as [keyof typeof aggregates, (number | null)[]][]) {
        const column: (number | null)[] = new Array<number | null>(t.length).fill(null);
        series.t.forEach((time, i) => {
          column[at.get(time)!] = values[i] ?? null;
        });
        out[agg] = column;
      }
      members[lineKey(eui, member)] = out;
    }
  }
  return {
    from: Math.min(...parts.map((p) => p.series.from)),
    to: Math.max(...parts.map((p) => p.series.to)),
    interval: first.interval,
    interval_s: first.interval_s,
    t,
    members,
    rollup_backfill_until_unix: first.rollup_backfill_until_unix,
  };
}
