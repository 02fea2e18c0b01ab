import type { SeriesWire } from '@dts/domain';

/** uPlot's columnar data: x values then one array per series, `null` for a gap. */
export type ChartData = [number[], ...(number | null)[][]];

export interface ChartSeries {
  member: string;
  /** Index of avg, min and max columns in ChartData (min/max null when not banded). */
  avg: number;
  min: number | null;
  max: number | null;
}

/**
 * Turns a series answer into uPlot columns. Buckets hold only the times that had uplinks: a null
 * is put where the device was silent much longer than usual, so that the line breaks there
 * instead of bridging the gap. Bands (min/max) are drawn when any bucket aggregates more than one
 * uplink — zoomed out; zoomed in they equal the average.
 */
export function toChartData(series: SeriesWire, members: readonly string[]): { data: ChartData; lines: ChartSeries[] } {
  const xs: number[] = [];
  const index: number[] = [];
  // A device reporting every 15 minutes leaves two of three 5-minute buckets empty: that is its
  // rhythm, not a gap. A gap is a silence well beyond both the bucket and the usual spacing.
  const steps = series.t
    .slice(1)
    .map((t, i) => t - (series.t[i] ?? t))
    .sort((a, b) => a - b);
  const usual = steps[Math.floor(steps.length / 2)] ?? series.interval_s;
  const gap = Math.max(2 * series.interval_s, 3 * usual);
  series.t.forEach((t, i) => {
    const previous = series.t[i - 1];
    if (previous !== undefined && t - previous > gap) {
      xs.push(previous + series.interval_s);
      index.push(-1);
    }
    xs.push(t);
    index.push(i);
  });
  const columns: (number | null)[][] = [];
  const lines: ChartSeries[] = [];
  const pick = (values: (number | null)[] | undefined) => index.map((i) => (i < 0 || !values ? null : (values[i] ?? null)));
  for (const member of members) {
    const m = series.members[member];
    if (!m) continue;
    const banded = (m.count ?? []).some((c) => (c ?? 0) > 1) && m.min !== undefined && m.max !== undefined;
    columns.push(pick(m.avg ?? m.max ?? m.min));
    const line: ChartSeries = { member, avg: columns.length, min: null, max: null };
    if (banded) {
      columns.push(pick(m.min));
      line.min = columns.length;
      columns.push(pick(m.max));
      line.max = columns.length;
    }
    lines.push(line);
  }
  return { data: [xs, ...columns], lines };
}

/**
 * The time axis of a chart: the window the answer covers (`from`..`to`, as the service resolved the
 * chosen range), whatever data falls in it. Fitted to the data instead, one bucket in "24h" spread
 * over years of ticks and two buckets in "1h" over one minute. A window of no length (from = to)
 * is widened to one bucket so that the axis has a scale.
 */
export function timeAxisRange(series: Pick<SeriesWire, 'from' | 'to' | 'interval_s'>): [number, number] {
  return series.to > series.from ? [series.from, series.to] : [series.from, series.from + series.interval_s];
}

/** A chart's time range by its name, ending now. */
export const RANGES = { '1h': 3_600, '24h': 86_400, '7d': 7 * 86_400, '30d': 30 * 86_400 } as const;
export type RangeName = keyof typeof RANGES;

export function rangeOf(name: RangeName, nowUnix: number): { from: number; to: number } {
  return { from: nowUnix - RANGES[name], to: nowUnix };
}
