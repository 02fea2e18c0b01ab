/**
 * Where time partitions begin and end: pure arithmetic on UTC instants, kept apart from the SQL so
 * that it is tested without a database. Every bound is a UTC midnight, so an hour or a day (the
 * rollups' buckets) never straddles two partitions, nor a retention cutoff (which is a UTC midnight
 * too, cutoffDay).
 */

export type PartitionInterval = 'day' | 'week' | 'month';

export const PARTITION_INTERVALS: readonly PartitionInterval[] = ['day', 'week', 'month'];

const DAY_MS = 86_400_000;

/** The UTC midnight at or before `at`. */
export function startOfDay(at: Date): Date {
  return new Date(Math.floor(at.getTime() / DAY_MS) * DAY_MS);
}

/** The start of the interval holding `at`: a UTC midnight, a Monday's for a week, the 1st's for a month. */
export function intervalStart(at: Date, interval: PartitionInterval): Date {
  const day = startOfDay(at);
  if (interval === 'day') return day;
  if (interval === 'week') return new Date(day.getTime() - ((day.getUTCDay() + 6) % 7) * DAY_MS);
  return new Date(Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), 1));
}

/** The start of the interval after the one holding `at`. */
export function nextIntervalStart(at: Date, interval: PartitionInterval): Date {
  const start = intervalStart(at, interval);
  if (interval === 'day') return new Date(start.getTime() + DAY_MS);
  if (interval === 'week') return new Date(start.getTime() + 7 * DAY_MS);
  return new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1));
}

/** A partition's table name: its parent's and the UTC date it begins (`uplinks_p20261201`). */
export function partitionName(parent: string, from: Date): string {
  return `${parent}_p${from.toISOString().slice(0, 10).replace(/-/g, '')}`;
}

/**
 * The partitions to add after the last one's end (`lastTo`) so that `until` is covered: each from
 * the previous one's end to the next interval boundary. A changed interval takes effect from the
 * last existing partition on.
 */
export function partitionsToAdd(lastTo: Date, until: Date, interval: PartitionInterval): { from: Date; to: Date }[] {
  const out: { from: Date; to: Date }[] = [];
  let from = lastTo;
  while (from.getTime() <= until.getTime()) {
    const to = nextIntervalStart(from, interval);
    out.push({ from, to });
    from = to;
  }
  return out;
}

/** The UTC midnight before which a retention of `days` removes raw rows, at `now`. */
export function cutoffDay(now: Date, days: number): Date {
  return new Date(startOfDay(now).getTime() - days * DAY_MS);
}
