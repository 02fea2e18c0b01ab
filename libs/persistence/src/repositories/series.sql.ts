/**
 * The statements of GET /user/device/series: the members as SQL, the hourly rollup's fill, and the
 * read that answers from the rollup where an hour is materialized and from the uplinks elsewhere.
 * Both aggregate the same way, so that an answer is the same whichever way its hours came: count,
 * min and max as they are, the average as the exact (numeric) sum over the count.
 */

/**
 * The key of the transaction-scoped advisory lock (with the device as the second key) that orders
 * materializing a device's hours against writes to its uplinks. The trigger of migration
 * 1795730000000 takes it with this number: never change it.
 */
export const SERIES_ROLLUP_LOCK = 7201;

/** The rollup member counting a whole hour's uplinks (a bucket with uplinks answers even where they lack the members). */
export const UPLINKS_MEMBER = '';

/**
 * Data type aliases stored in columns of their own (the rest are numbers in the decoded payload).
 * The same members as the data rows' `filter` (libs/domain uplink-mapping), as columns.
 */
const COLUMN: Record<string, string> = {
  temperature: 'temperature',
  humidity: 'humidity',
  battery_voltage: 'battery_voltage',
  battery: 'battery_voltage',
  battery_percent: 'battery_percent',
  LAT: 'lat',
  LON: 'lon',
  ALT: 'alt',
  geoloc_LAT: 'geoloc_lat',
  geoloc_LON: 'geoloc_lon',
  geoloc_ALT: 'geoloc_alt',
  RSSI: 'rssi',
  SNR: 'snr',
  SF: 'sf',
};

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

/** The members' distinct keys and, per key, the value as SQL over `u` (an alias is a parameter, never SQL). */
function values(aliases: readonly string[], params: unknown[]): { keys: string[]; exprs: string[] } {
  const keys: string[] = [];
  const exprs: string[] = [];
  for (const alias of aliases) {
    const key = seriesMemberKey(alias);
    if (keys.includes(key)) continue;
    keys.push(key);
    const column = COLUMN[alias];
    // A decoded member is read only where the payload holds a JSON number.
    exprs.push(
      column === undefined
        ? `CASE WHEN jsonb_typeof(u.decoded -> $${params.push(alias)}::text) = 'number' THEN (u.decoded ->> $${params.length}::text)::float8 END`
        : `u.${column}${column === 'sf' ? '::float8' : ''}`,
    );
  }
  return { keys, exprs };
}

/** Per key j: n{j} values, s{j} their exact sum, lo{j}/hi{j} the extremes; n_all the uplinks. Over `u` and `v`. */
function partials(exprs: readonly string[]): string {
  return ['count(*) AS n_all', ...exprs.map((_, j) => `count(v${j}) AS n${j}, sum(v${j}::numeric) AS s${j}, min(v${j}) AS lo${j}, max(v${j}) AS hi${j}`)].join(
    ', ',
  );
}

const lateralValues = (exprs: readonly string[]) => `CROSS JOIN LATERAL (SELECT ${exprs.map((e, j) => `${e} AS v${j}`).join(', ')}) v`;

/**
 * Materializes the hours in [$2, $3) (unix seconds, whole hours) for the members that are not yet,
 * from the uplinks: one index range scan per hour, a row per member and hour (n = 0 where the hour
 * has no value), and the hour's uplink count. To be run under the device's lock (SERIES_ROLLUP_LOCK).
 */
export function rollupFillSql(deviceUid: number, from: number, to: number, aliases: readonly string[]): Statement {
  const params: unknown[] = [deviceUid, from, to, null];
  const { keys, exprs } = values(aliases, params);
  const all = [UPLINKS_MEMBER, ...keys];
  params[3] = all;
  const rows = [
    `(${keyParam(params, UPLINKS_MEMBER)}, a.n_all, NULL::numeric, NULL::float8, NULL::float8)`,
    ...keys.map((k, j) => `(${keyParam(params, k)}, a.n${j}, a.s${j}, a.lo${j}, a.hi${j})`),
  ];
  return {
    sql: `INSERT INTO uplink_rollups (device_id, hour, member, n, total, lo, hi)
SELECT $1, h.hour, p.member, p.n, p.total, p.lo, p.hi
FROM generate_series(to_timestamp($2), to_timestamp($3) - interval '1 hour', interval '1 hour') AS h(hour)
CROSS JOIN LATERAL (
  SELECT ${partials(exprs)}
  FROM uplinks u ${lateralValues(exprs)}
  WHERE u.device_id = $1 AND u.received_at >= h.hour AND u.received_at < h.hour + interval '1 hour'
) a
CROSS JOIN LATERAL (VALUES ${rows.join(', ')}) AS p(member, n, total, lo, hi)
WHERE (SELECT count(*) FROM uplink_rollups r WHERE r.device_id = $1 AND r.hour = h.hour AND r.member = ANY($4::text[])) < ${all.length}
ON CONFLICT (device_id, hour, member) DO NOTHING`,
    params,
  };
}

const keyParam = (params: unknown[], key: string) => `$${params.push(key)}::text`;

/** The hours in [$2, $3) not materialized for every one of the keys $4, as unix seconds. */
export function rollupMissingSql(deviceUid: number, from: number, to: number, aliases: readonly string[]): Statement {
  const all = [UPLINKS_MEMBER, ...values(aliases, []).keys];
  return {
    sql: `SELECT extract(epoch FROM g)::bigint AS hour
FROM generate_series(to_timestamp($2), to_timestamp($3) - interval '1 hour', interval '1 hour') AS g
LEFT JOIN (SELECT r.hour, count(*) AS n FROM uplink_rollups r
           WHERE r.device_id = $1 AND r.hour >= to_timestamp($2) AND r.hour < to_timestamp($3) AND r.member = ANY($4::text[])
           GROUP BY r.hour) d ON d.hour = g
WHERE d.n IS DISTINCT FROM ${all.length}
ORDER BY 1`,
    params: [deviceUid, from, to, all],
  };
}

export interface SeriesStatementRequest {
  deviceUid: number;
  members: readonly string[];
  aggregates: readonly SeriesAggregateName[];
  /** Inclusive bounds, unix seconds, on the uplinks' reception time. */
  from: number;
  to: number;
  intervalSeconds: number;
  /** Whole hours [rollupFrom, rollupTo) within the range answered from the rollup where materialized; empty (equal) for none. */
  rollupFrom: number;
  rollupTo: number;
}

/**
 * The buckets of the range: the hours of [rollupFrom, rollupTo) that are materialized for every
 * member come from the rollup, everything else — the partial hours at `from` and `to`, the hour
 * still running, hours dropped by a late or re-decoded uplink — from the uplinks, by an index
 * range scan per stretch. Partial aggregates of both are combined per bucket (epoch-aligned
 * date_bin), only buckets that hold uplinks. One statement, one snapshot: a rollup row it sees was
 * computed from the uplinks it sees (a change to them drops the row in the same transaction).
 */
export function seriesSql(r: SeriesStatementRequest): Statement {
  const params: unknown[] = [r.deviceUid, r.from, r.to, r.intervalSeconds, r.rollupFrom, r.rollupTo, null];
  const { keys, exprs } = values(r.members, params);
  params[6] = [UPLINKS_MEMBER, ...keys];
  const filter = (k: string) => `FILTER (WHERE r.member = ${keyParam(params, k)})`;
  const rolled = [`sum(r.n) ${filter(UPLINKS_MEMBER)} AS n_all`];
  keys.forEach((k, j) => {
    const f = filter(k);
    rolled.push(`sum(r.n) ${f} AS n${j}, sum(r.total) ${f} AS s${j}, min(r.lo) ${f} AS lo${j}, max(r.hi) ${f} AS hi${j}`);
  });
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
  const bucket = (time: string) => `date_bin(make_interval(secs => $4), ${time}, to_timestamp(0))`;
  return {
    sql: `WITH done AS (
  SELECT r.hour FROM uplink_rollups r
  WHERE r.device_id = $1 AND r.hour >= to_timestamp($5) AND r.hour < to_timestamp($6) AND r.member = ANY($7::text[])
  GROUP BY r.hour HAVING count(*) = cardinality($7::text[])
), stretches AS (
  SELECT to_timestamp($2) AS s, to_timestamp($5) AS e
  UNION ALL SELECT to_timestamp($6), to_timestamp($3::bigint + 1)
  UNION ALL SELECT g, g + interval '1 hour' FROM generate_series(to_timestamp($5), to_timestamp($6) - interval '1 hour', interval '1 hour') AS g
            WHERE g NOT IN (SELECT hour FROM done)
), parts AS (
  SELECT ${bucket('u.received_at')} AS b, ${partials(exprs)}
  FROM stretches x JOIN uplinks u ON u.device_id = $1 AND u.received_at >= x.s AND u.received_at < x.e ${lateralValues(exprs)}
  GROUP BY 1
  UNION ALL
  SELECT ${bucket('r.hour')} AS b, ${rolled.join(', ')}
  FROM uplink_rollups r JOIN done d ON d.hour = r.hour
  WHERE r.device_id = $1 AND r.member = ANY($7::text[])
  GROUP BY 1
)
SELECT extract(epoch FROM b)::bigint AS t, ${columns.join(', ')}
FROM parts GROUP BY b HAVING sum(n_all) > 0 ORDER BY b`,
    params,
  };
}
