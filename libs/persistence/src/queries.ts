import { META_SELECT } from './devices/device-meta-columns';
import { seriesRegions, seriesSql } from './series/series.sql';
import { STORE_UPLINKS_SQL } from './uplinks/store-uplinks.sql';
import { dataJsonSql, LATEST_UPLINK_SQL, uplinkRangeSql, UPLINKS_AFTER_UID_SQL } from './uplinks/uplink-reads.repository';
import { APPLY_DECODED_SQL, PAYLOAD_BATCH_SQL } from './uplinks/uplinks.repository';

const SERIES_EXAMPLE = { deviceUid: 0, members: ['temperature', 'humidity', 'pressure'] };

/**
 * The statements assembled from column maps and rules, by name: `queries.spec.ts` keeps each one's
 * text in libs/persistence/queries/<name>.sql, so that what reaches the database is reviewed as SQL
 * (a change to a column map or a rule shows there as a diff). `npm run sql:generate` rewrites them.
 */
export const GENERATED_QUERIES: Readonly<Record<string, string>> = {
  'devices.meta': META_SELECT,
  'uplinks.store': STORE_UPLINKS_SQL,
  'uplinks.range': (['asc', 'desc'] as const)
    .flatMap((order) => [false, true].map((keyset) => `-- order ${order}${keyset ? ', after a keyset' : ''}\n${uplinkRangeSql(order, keyset)};`))
    .join('\n\n'),
  'uplinks.range-issues': (['errors', 'warnings', 'any', 'none'] as const)
    .map((issues) => `-- issues ${issues}\n${uplinkRangeSql('asc', true, { issues })};`)
    .join('\n\n'),
  'uplinks.data-range': (['asc', 'desc'] as const)
    .flatMap((order) =>
      [false, true].map((keyset) => `-- order ${order}${keyset ? ', after a keyset' : ''}\n${uplinkRangeSql(order, keyset, { data: true })};`),
    )
    .join('\n\n'),
  // The data rows' JSON written by PostgreSQL, generated from DATA_ROW_MEMBERS (libs/domain).
  'uplinks.data-json': (['asc', 'desc'] as const)
    .flatMap((order) => [false, true].map((keyset) => `-- order ${order}${keyset ? ', after a keyset' : ''}\n${dataJsonSql(order, keyset)};`))
    .join('\n\n'),
  'uplinks.after-uid': UPLINKS_AFTER_UID_SQL,
  'uplinks.latest': LATEST_UPLINK_SQL,
  'uplinks.payload-batch': PAYLOAD_BATCH_SQL,
  'uplinks.apply-decoded': APPLY_DECODED_SQL,
  // Two column members and one of the decoded payload, as the series statements take any mix; a
  // range of two days and a half in daily buckets: raw hours at either end, hourly hours beside
  // the whole day, the day from the daily rollup.
  'series.buckets': seriesSql({
    ...SERIES_EXAMPLE,
    aggregates: ['min', 'avg', 'max', 'count'],
    intervalSeconds: 86_400,
    regions: seriesRegions({ from: 1_800, to: 2 * 86_400 + 5_400, intervalSeconds: 86_400, hourlyFrom: 0, dailyFrom: 0 }),
  }).sql,
};

/** A statement as its file holds it: no trailing blanks, one statement-ending semicolon, a final newline. */
export function sqlFileText(sql: string): string {
  const text = sql
    .split('\n')
    .map((line) => line.trimEnd())
    .filter((line, i, all) => line !== '' || (all[i - 1] ?? '') !== '')
    .join('\n')
    .trim();
  return `${text.endsWith(';') ? text : `${text};`}\n`;
}
