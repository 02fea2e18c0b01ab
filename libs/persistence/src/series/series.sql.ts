import { COLUMN_DATA_TYPES } from '@dts/domain';

/**
 * The statement of GET /user/device/series: buckets computed from the daily rollup, the hourly
 * rollup and the uplinks, each for the part of the range it can answer (seriesRegions). The three
 * aggregate the same way, so that an answer is the same whichever way its hours came: count, min
 * and max as they are, the average as the exact (numeric) sum over the count. The rollups are kept
 * up by a trigger on every insert into `uplinks` (migration 1795830000000), which names the same
 * members (seriesMemberKey).
 */

const HOUR = 3_600;
const DAY = 86_400;

/**
 * Data type aliases stored in columns of their own (the rest are numbers in the decoded payload),
 * with the column: COLUMN_DATA_TYPES of libs/domain, the same members as the data rows' `filter`.
 * The rollup trigger's member list (uplink_rollup_members, a migration) must name these columns:
 * series.repository.int-spec.ts fails, naming the alias, when it does not.
 */
const COLUMN: Readonly<Record<string, string>> = COLUMN_DATA_TYPES;

/** The aliases the rollup trigger reads from columns rather than from the decoded payload. */
export const COLUMN_ALIASES: readonly string[] = Object.keys(COLUMN);

/**
 * A member's rollup key: the column's name, or `decoded.<alias>` for a member of the decoded
 * payload (never a column name, so an alias that later gets a column does not read old rows).
 */
export function seriesMemberKey(alias: string): string {
  return COLUMN[alias] ?? `decoded.${alias}`;
}

export type SeriesAggregateName = 'min' | 'avg' | 'max' | 'count';

/** A statement and its parameters. */
export interface Statement {
  sql: string;
  params: unknown[];
}

/** Half-open [from, to), unix seconds; empty when to <= from. */
export interface Span {
  from: number;
  to: number;
}

/** Which part of a series' range each source answers. */
export interface SeriesRegions {
  /** The uplinks themselves: the partial hours at either end, and whatever the rollups cannot answer. */
  raw: Span[];
  hourly: Span[];
  daily: Span;
}

export interface RegionRequest {
  /** Inclusive bounds, unix seconds. */
  from: number;
  to: number;
  intervalSeconds: number;
  /**
   * The earliest time each rollup answers: its retention's horizon, and for a device whose
   * uplinks stored before the rollups existed are still being rolled up, its backfill's `until`.
   */
  hourlyFrom: number;
  dailyFrom: number;
}

const empty = (s: Span) => s.to <= s.from;

/** `span` without the `holes`, as the spans left (in order, none empty). */
function minus(span: Span, holes: readonly Span[]): Span[] {
  let left: Span[] = [span];
  for (const hole of holes) {
    if (empty(hole)) continue;
    left = left.flatMap((s) => [
      { from: s.from, to: Math.min(s.to, hole.from) },
      { from: Math.max(s.from, hole.to), to: s.to },
    ]);
    left = left.filter((s) => !empty(s));
  }
  return left;
}

/**
 * The regions of a series: buckets of whole days come from the daily rollup where it answers,
 * of whole hours from the hourly rollup where it answers, and the rest from the uplinks. Bucket
 * widths that are not whole hours read the uplinks only (at most 2,000 buckets of 15 minutes: a
 * few weeks).
 */
export function seriesRegions(r: RegionRequest): SeriesRegions {
  const range: Span = { from: r.from, to: r.to + 1 };
  const whole = (from: number, width: number): Span => ({ from: Math.ceil(Math.max(r.from, from) / width) * width, to: Math.floor(range.to / width) * width });
  const none: Span = { from: range.to, to: range.to };
  const hours = r.intervalSeconds % HOUR === 0 ? whole(r.hourlyFrom, HOUR) : none;
  const days = r.intervalSeconds % DAY === 0 ? whole(r.dailyFrom, DAY) : none;
  return {
    raw: minus(range, [days, hours]),
    hourly: empty(hours) ? [] : minus(hours, [days]),
    daily: empty(days) ? none : days,
  };
}

/** The members' distinct keys, in order. */
function memberKeys(aliases: readonly string[]): string[] {
  return [...new Set(aliases.map(seriesMemberKey))];
}

/**
 * Per distinct key, its value as SQL over `u` (an alias is a parameter, never SQL). Asked for only
 * when the statement reads uplinks: a parameter no part uses would have no type.
 */
function rawValues(aliases: readonly string[], params: unknown[]): string[] {
  const seen = new Set<string>();
  const exprs: string[] = [];
  for (const alias of aliases) {
    const key = seriesMemberKey(alias);
    if (seen.has(key)) continue;
    seen.add(key);
    const column = COLUMN[alias];
    // A decoded member is read only where the payload holds a JSON number, as the trigger reads it.
    exprs.push(
      column === undefined
        ? `CASE WHEN jsonb_typeof(u.decoded -> $${params.push(alias)}::text) = 'number' THEN (u.decoded ->> $${params.length}::text)::float8 END`
        : `u.${column}${column === 'sf' ? '::float8' : ''}`,
    );
  }
  return exprs;
}

/** Per key j: n{j} values, s{j} their exact sum, lo{j}/hi{j} the extremes; n_all the uplinks. Over `u` and `v`. */
function rawPartials(exprs: readonly string[]): string {
  return ['count(*) AS n_all', ...exprs.map((_, j) => `count(v${j}) AS n${j}, sum(v${j}::numeric) AS s${j}, min(v${j}) AS lo${j}, max(v${j}) AS hi${j}`)].join(
    ', ',
  );
}

/** The same partials from a rollup row `r` (`m`: key → [n, sum, min, max]). */
function rolledPartials(keyParams: readonly string[]): string {
  return [
    'sum(r.n) AS n_all',
    ...keyParams.map(
      (k, j) =>
        `sum((r.m -> ${k} ->> 0)::bigint) AS n${j}, sum((r.m -> ${k} ->> 1)::numeric) AS s${j}, ` +
        `min((r.m -> ${k} ->> 2)::float8) AS lo${j}, max((r.m -> ${k} ->> 3)::float8) AS hi${j}`,
    ),
  ].join(', ');
}

export interface SeriesStatementRequest {
  deviceUid: number;
  members: readonly string[];
  aggregates: readonly SeriesAggregateName[];
  intervalSeconds: number;
  regions: SeriesRegions;
}

/**
 * The buckets of the regions: partial aggregates of each source, combined per bucket (epoch-aligned
 * date_bin), only buckets that hold uplinks. One statement, one snapshot: the trigger writes a
 * rollup row in the transaction that stores its uplinks, so the sources always agree.
 */
export function seriesSql(r: SeriesStatementRequest): Statement {
  const params: unknown[] = [r.deviceUid, r.intervalSeconds];
  const keys = memberKeys(r.members);
  const exprs = r.regions.raw.length > 0 ? rawValues(r.members, params) : [];
  const rolled = r.regions.hourly.length > 0 || r.regions.daily.to > r.regions.daily.from;
  const keyParams = rolled ? keys.map((k) => `$${params.push(k)}::text`) : [];
  const time = (seconds: number) => `to_timestamp($${params.push(seconds)})`;
  const bucket = (column: string) => `date_bin(make_interval(secs => $2), ${column}, to_timestamp(0))`;
  const lateral = `CROSS JOIN LATERAL (SELECT ${exprs.map((e, j) => `${e} AS v${j}`).join(', ')}) v`;
  const parts: string[] = [];
  for (const span of r.regions.raw) {
    parts.push(`SELECT ${bucket('u.received_at')} AS b, ${rawPartials(exprs)}
  FROM uplinks u ${lateral}
  WHERE u.device_id = $1 AND u.received_at >= ${time(span.from)} AND u.received_at < ${time(span.to)}
  GROUP BY 1`);
  }
  for (const span of r.regions.hourly) {
    parts.push(`SELECT ${bucket('r.bucket')} AS b, ${rolledPartials(keyParams)}
  FROM uplink_rollups_hourly r
  WHERE r.device_id = $1 AND r.bucket >= ${time(span.from)} AND r.bucket < ${time(span.to)}
  GROUP BY 1`);
  }
  if (r.regions.daily.to > r.regions.daily.from) {
    parts.push(`SELECT ${bucket('r.bucket')} AS b, ${rolledPartials(keyParams)}
  FROM uplink_rollups_daily r
  WHERE r.device_id = $1 AND r.bucket >= ${time(r.regions.daily.from)} AND r.bucket < ${time(r.regions.daily.to)}
  GROUP BY 1`);
  }
  const columns: string[] = [];
  r.members.forEach((alias, i) => {
    const j = keys.indexOf(seriesMemberKey(alias));
    const agg: Record<SeriesAggregateName, string> = {
      min: `min(lo${j})`,
      avg: `(sum(s${j}) / nullif(sum(n${j}), 0))::float8`,
      max: `max(hi${j})`,
      count: `coalesce(sum(n${j}), 0)::int`,
    };
    for (const a of r.aggregates) columns.push(`${agg[a]} AS m${i}_${a}`);
  });
  return {
    sql: `WITH parts AS (
  ${parts.join('\n  UNION ALL\n  ')}
)
SELECT extract(epoch FROM b)::bigint AS t, ${columns.join(', ')}
FROM parts GROUP BY b HAVING sum(n_all) > 0 ORDER BY b`,
    params,
  };
}
