import { DATA_ROW_STORED_COLUMNS, DECODER_COLUMNS, RECORD_COLUMNS, type StoredDataRow, type StoredUplink } from '@dts/domain';
import { nullable, type PgValue, required, type RowOf, type SqlType } from '../sql/columns';

export { sqlList } from '../sql/columns';

/**
 * The uplinks table, column by column: the one place the row is written down. The record types and
 * the column lists of every statement that writes or reads whole rows are derived from it. A new
 * column: a line here, a migration adding it, and the wire type that shows it
 * (docs/architecture.md, "Adding an uplink column").
 */
export const UPLINK_COLUMNS = {
  uid: required('bigint'),
  device_id: required('integer'),
  received_at: required('timestamptz'),
  network_ref: nullable('integer'),
  /** The network's id of the message: a redelivery with the same one is dropped. */
  message_id: nullable('text'),
  port: required('smallint'),
  fcnt: nullable('bigint'),
  payload: required('bytea'),
  sf: nullable('smallint'),
  rssi: nullable('double precision'),
  snr: nullable('double precision'),
  geoloc_lat: nullable('double precision'),
  geoloc_lon: nullable('double precision'),
  geoloc_alt: nullable('double precision'),
  decoded: nullable('jsonb'),
  valid: nullable('boolean'),
  /** The decoder's errors (null for none, never empty): why `valid` is false. */
  payload_errors: nullable('text[]'),
  /** The decoder's warnings (null for none, never empty). */
  payload_warnings: nullable('text[]'),
  temperature: nullable('double precision'),
  humidity: nullable('double precision'),
  battery_voltage: nullable('double precision'),
  battery_percent: nullable('double precision'),
  lat: nullable('double precision'),
  lon: nullable('double precision'),
  alt: nullable('double precision'),
  firmware_version: nullable('text'),
  /** The device's own clock, when the payload carries one. */
  ts_device: nullable('timestamptz'),
  ts_gps: nullable('timestamptz'),
  /** The API token that delivered it (null for the platform ingest secret). */
  api_ref: nullable('integer'),
  simulated: required('boolean'),
} as const;

export type UplinkColumn = keyof typeof UPLINK_COLUMNS;
type Spec<K extends UplinkColumn> = (typeof UPLINK_COLUMNS)[K];
type Nullable<K extends UplinkColumn> = Spec<K>['nullable'] extends true ? null : never;

/** A whole uplink row as pg reads it. */
export type UplinkRecord = RowOf<typeof UPLINK_COLUMNS>;

/** The value of each type in the JSON a write sends (jsonb_to_recordset): times as ISO text, bytes as hex. */
type JsonValue<T extends SqlType> = T extends 'timestamptz' | 'bytea' | 'text' ? string : T extends 'bigint' ? number : PgValue<T>;
/** An uplink row as ingestion writes it; the uid is drawn by the statement. */
export type UplinkWrite = { [K in Exclude<UplinkColumn, 'uid'>]: JsonValue<Spec<K>['type']> | Nullable<K> };

/**
 * The measurement columns a decoder's output fills: written at ingestion, rewritten by a re-decode.
 * The columns of the uplink record's members `from: 'decoder'` (RECORD_COLUMN_MEMBERS in
 * libs/domain); one missing from UPLINK_COLUMNS stops this compiling.
 */
export const MEASUREMENT_COLUMNS: readonly UplinkColumn[] = DECODER_COLUMNS;

/**
 * The columns a table row, a data row and the live feed show (with the network's name beside them):
 * the record's own, and the columns of its members (RECORD_COLUMN_MEMBERS in libs/domain).
 */
export const UPLINK_READ_COLUMNS = [
  'uid',
  'received_at',
  'port',
  'payload',
  'sf',
  'rssi',
  'snr',
  'decoded',
  'valid',
  'payload_errors',
  'payload_warnings',
  ...RECORD_COLUMNS,
  'ts_device',
  'ts_gps',
  'api_ref',
] as const satisfies readonly UplinkColumn[];

/**
 * The columns a data row shows, as its members read them (DATA_ROW_MEMBERS in libs/domain): the
 * data view's reads and the data cache select these only, not the whole row (docs/benchmarks.md,
 * figure 3).
 */
export const DATA_ROW_COLUMNS: readonly (keyof StoredDataRow & (typeof UPLINK_READ_COLUMNS)[number])[] = DATA_ROW_STORED_COLUMNS;

/** A data row's columns as the reads give them. */
export type DataRow = Pick<UplinkRecord, keyof StoredDataRow>;
const _dataRowsMapToWire: (row: DataRow) => StoredDataRow = (row) => row;
void _dataRowsMapToWire;

/** One stored uplink as the reads give it. */
export type UplinkRow = Pick<UplinkRecord, (typeof UPLINK_READ_COLUMNS)[number]> & { network: string | null };
// The domain's mappings take what the reads give: this line stops compiling when the two part.
const _rowsMapToWire: (row: UplinkRow) => StoredUplink = (row) => row;
void _rowsMapToWire;

/** A column as a recordset declares it: bytes travel as hex text. */
export const declaredColumn = (column: UplinkColumn) => `${column} ${UPLINK_COLUMNS[column].type === 'bytea' ? 'text' : UPLINK_COLUMNS[column].type}`;

/** The value of a column selected from a recordset: hex text back to bytes. */
export const fromRecordset = (column: UplinkColumn) => (UPLINK_COLUMNS[column].type === 'bytea' ? `decode(${column}, 'hex')` : column);

/** A column of `u` as the reads select it: bigint as text (pg's own reading of it, said outright). */
export const selectColumn = (column: UplinkColumn) => (UPLINK_COLUMNS[column].type === 'bigint' ? `u.${column}::text AS ${column}` : `u.${column}`);

/** Every column but the uid, in table order: what ingestion writes. */
export const UPLINK_WRITE_COLUMNS = (Object.keys(UPLINK_COLUMNS) as UplinkColumn[]).filter((c) => c !== 'uid');
