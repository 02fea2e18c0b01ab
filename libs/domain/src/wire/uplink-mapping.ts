import { bytesToBase64, bytesToHex } from '../payload';
import { formatIsoUtc, toUnix } from '../time';
import type { DataRowWire, UplinkRecordWire } from './uplink';

/**
 * A member of the uplink record that shows one column of the stored row as it is: `number` a
 * numeric column (null when NULL), `text` a text column. `from` says what fills the column:
 * `decoder`, a measurement a decoder derives (Measurements: written at ingestion, rewritten by a
 * re-decode); `network`, the delivery. A `number` member is also a data type alias of its own name
 * (the data rows' `filter`, the series' members, COLUMN_DATA_TYPES).
 */
export interface RecordColumnMember {
  readonly key: keyof UplinkRecordWire;
  readonly column: string;
  readonly type: 'number' | 'text';
  readonly from: 'decoder' | 'network';
}

/**
 * The uplink record's members that show a column, in the order the wire writes them, after the
 * record's own members (toUplinkRecordWire). StoredUplink's and Measurements' columns, the filter's
 * and the series' aliases (COLUMN_DATA_TYPES), the columns the reads select and the re-decode
 * writes, and the CSV export's columns are derived from it. UplinkRecordWire must agree: the check
 * below stops compiling when the two part. toUplinkRecordWire writes the members out by hand, held
 * to this list by uplink-mapping.spec.ts.
 */
export const RECORD_COLUMN_MEMBERS = [
  { key: 'LAT', column: 'lat', type: 'number', from: 'decoder' },
  { key: 'LON', column: 'lon', type: 'number', from: 'decoder' },
  { key: 'ALT', column: 'alt', type: 'number', from: 'decoder' },
  { key: 'geoloc_LAT', column: 'geoloc_lat', type: 'number', from: 'network' },
  { key: 'geoloc_LON', column: 'geoloc_lon', type: 'number', from: 'network' },
  { key: 'geoloc_ALT', column: 'geoloc_alt', type: 'number', from: 'network' },
  { key: 'temperature', column: 'temperature', type: 'number', from: 'decoder' },
  { key: 'humidity', column: 'humidity', type: 'number', from: 'decoder' },
  { key: 'battery_voltage', column: 'battery_voltage', type: 'number', from: 'decoder' },
  { key: 'battery_percent', column: 'battery_percent', type: 'number', from: 'decoder' },
  { key: 'firmware_version', column: 'firmware_version', type: 'text', from: 'decoder' },
] as const satisfies readonly RecordColumnMember[];

type ColumnMember = (typeof RECORD_COLUMN_MEMBERS)[number];
type ValueOf<M extends ColumnMember> = M extends { type: 'text' } ? string | null : number | null;
/** The columns some members show, with their stored values. */
export type ColumnsOfMembers<M extends ColumnMember> = { [X in M as X['column']]: ValueOf<X> };
/** The record's members the columns give, as the wire writes them. */
type RecordOfMembers = { [X in ColumnMember as X['key']]: ValueOf<X> };
// UplinkRecordWire (wire/uplink.ts) gives each member the type its column holds: this line stops compiling when they part.
const _membersAreRecord: (row: RecordOfMembers) => Pick<UplinkRecordWire, ColumnMember['key']> = (row) => row;
void _membersAreRecord;

/** The record's own members: those that are not a column shown as it is (RECORD_COLUMN_MEMBERS). */
export type RecordOwnMembers = Omit<UplinkRecordWire, ColumnMember['key']>;

/** The columns of the record's members, in member order: the reads select them (UPLINK_READ_COLUMNS). */
export const RECORD_COLUMNS = RECORD_COLUMN_MEMBERS.map((m) => m.column);
/** The columns a decoder fills, in member order: written at ingestion, rewritten by a re-decode (MEASUREMENT_COLUMNS). */
export const DECODER_COLUMNS = RECORD_COLUMN_MEMBERS.flatMap((m) => (m.from === 'decoder' ? [m.column] : []));

/**
 * Data type aliases whose values are columns, with the column: every `number` member by its own
 * name, and the aliases of the radio data and the battery's short name. The filter of the data rows
 * (filterMember), the series (seriesMemberKey) and the data types in use read these columns; the
 * rest are numbers of the decoded payload. The rollup trigger (uplink_rollup_members, a migration)
 * must list the same: series.repository.int-spec.ts fails naming the alias when it does not.
 */
export const COLUMN_DATA_TYPES: Readonly<Record<ColumnDataType, keyof StoredUplink>> = {
  ...(Object.fromEntries(RECORD_COLUMN_MEMBERS.flatMap((m) => (m.type === 'number' ? [[m.key, m.column]] : []))) as Record<
    Extract<ColumnMember, { type: 'number' }>['key'],
    keyof StoredUplink
  >),
  battery: 'battery_voltage',
  RSSI: 'rssi',
  SNR: 'snr',
  SF: 'sf',
};
/** A data type alias read from a column. */
export type ColumnDataType = Extract<ColumnMember, { type: 'number' }>['key'] | 'battery' | 'RSSI' | 'SNR' | 'SF';

/** A stored uplink as the mappings read it (the persistence row has this shape). */
export interface StoredUplink extends ColumnsOfMembers<ColumnMember> {
  uid: string;
  received_at: Date;
  port: number;
  payload: Uint8Array;
  sf: number | null;
  rssi: number | null;
  snr: number | null;
  decoded: Record<string, unknown> | null;
  valid: boolean | null;
  /** The decoder's errors and warnings, null for none. */
  payload_errors: readonly string[] | null;
  payload_warnings: readonly string[] | null;
  ts_device: Date | null;
  ts_gps: Date | null;
  api_ref: number | null;
  network: string | null;
}

export interface DeviceRef {
  uid: number;
  eui: string;
  ownerId: number;
}

const unix = (d: Date | null) => (d ? toUnix(d) : null);
const int = (n: number | null) => (n === null ? null : Math.round(n));
/** The moment a measurement describes: the device's own clock when it sent one, else reception. */
const measuredAt = (row: Pick<StoredUplink, 'ts_device' | 'received_at'>) => row.ts_device ?? row.received_at;

/** A stored list of texts (null for none) as the wire shows it: always an array. */
const texts = (value: readonly string[] | null): string[] => (value === null ? [] : [...value]);

/**
 * Every member of the uplink record (docs/api.md §15), null where absent. Written out member by
 * member, RECORD_COLUMN_MEMBERS' too: one object literal is twice as fast as adding those members in
 * a loop over the list (docs/architecture.md, "Adding an uplink column"), and this runs for every
 * row of the table, the live feed and the exports. The compiler asks for a member of
 * UplinkRecordWire missing here; uplink-mapping.spec.ts fails, naming the member, when a line here
 * reads another column than RECORD_COLUMN_MEMBERS says, or the members are in another order.
 */
export function toUplinkRecordWire(row: StoredUplink, device: DeviceRef): UplinkRecordWire {
  const received = toUnix(row.received_at);
  return {
    uplink: {
      uid: Number(row.uid),
      time_stamp_unix: received,
      devEUI: device.eui,
      port: row.port,
      SF: row.sf,
      RSSI: int(row.rssi),
      SNR: row.snr,
      payload_raw: bytesToBase64(row.payload),
      network: row.network ?? 'unknown',
      geoloc_lat: row.geoloc_lat,
      geoloc_lon: row.geoloc_lon,
      geoloc_alt: row.geoloc_alt,
      api_ref: row.api_ref,
      user_ref: device.ownerId,
      device_ref: device.uid,
    },
    payload_decoded: row.decoded ?? {},
    payload_port: row.port,
    payload_length: row.payload.length,
    payload_hex: bytesToHex(row.payload),
    payload_valid: row.valid ?? true,
    payload_errors: texts(row.payload_errors),
    payload_warnings: texts(row.payload_warnings),
    ts_network_unix: received,
    ts_net_unix: received,
    ts_gps_unix: unix(row.ts_gps),
    ts_unix: toUnix(measuredAt(row)),
    // RECORD_COLUMN_MEMBERS, in their order.
    LAT: row.lat,
    LON: row.lon,
    ALT: row.alt,
    geoloc_LAT: row.geoloc_lat,
    geoloc_LON: row.geoloc_lon,
    geoloc_ALT: row.geoloc_alt,
    temperature: row.temperature,
    humidity: row.humidity,
    battery_voltage: row.battery_voltage,
    battery_percent: row.battery_percent,
    firmware_version: row.firmware_version,
  };
}

/**
 * How a data row member is written from the stored row: `id`, a bigint the reads give as text, as
 * a number; `unix` and `iso`, the moment the row describes (the device's clock, else reception) as
 * unix seconds and as ISO text; `number`, a double column (null when NULL). A member with `omitUnless`
 * is left out of the row (not null) unless all those columns hold a value.
 */
export type DataRowMember =
  | { readonly key: string; readonly kind: 'id'; readonly column: 'uid' }
  | { readonly key: string; readonly kind: 'unix' | 'iso' }
  | { readonly key: string; readonly kind: 'number'; readonly column: DataRowNumberColumn; readonly omitUnless?: readonly DataRowNumberColumn[] };
type DataRowNumberColumn = { [K in keyof StoredUplink]: StoredUplink[K] extends number | null ? K : never }[keyof StoredUplink];

/**
 * A data row (docs/api.md §5), member by member in the order the wire writes them: the one place
 * it is written down. toDataRowWire, the columns the data reads select (DATA_ROW_COLUMNS) and the
 * JSON PostgreSQL writes for them (dataJsonSql in libs/persistence) are derived from it, and
 * uplink-reads.repository.int-spec.ts holds the two renderings to the same bytes, member by member.
 * DataRowWire must match it: the check below stops compiling when the two part.
 */
export const DATA_ROW_MEMBERS = [
  { key: 'uid', kind: 'id', column: 'uid' },
  { key: 'ts_unix', kind: 'unix' },
  { key: 'time_stamp', kind: 'iso' },
  { key: 'humidity', kind: 'number', column: 'humidity' },
  { key: 'temperature', kind: 'number', column: 'temperature' },
  { key: 'battery', kind: 'number', column: 'battery_voltage' },
  // The network position only where there is one: latitude and longitude together, altitude when known.
  { key: 'geoloc_LAT', kind: 'number', column: 'geoloc_lat', omitUnless: ['geoloc_lat', 'geoloc_lon'] },
  { key: 'geoloc_LON', kind: 'number', column: 'geoloc_lon', omitUnless: ['geoloc_lat', 'geoloc_lon'] },
  { key: 'geoloc_ALT', kind: 'number', column: 'geoloc_alt', omitUnless: ['geoloc_lat', 'geoloc_lon', 'geoloc_alt'] },
] as const satisfies readonly DataRowMember[];

type Members = (typeof DATA_ROW_MEMBERS)[number];
/** The stored columns a member reads. */
type ColumnsOf<M> = M extends { kind: 'unix' | 'iso' }
  ? 'ts_device' | 'received_at'
  : (M extends { column: infer C } ? C : never) | (M extends { omitUnless: readonly (infer O)[] } ? O : never);
/** The wire value of a member. */
type WireOf<M> = M extends { kind: 'iso' } ? string : M extends { kind: 'id' | 'unix' } ? number : number | null;
type Always = Exclude<Members, { omitUnless: readonly unknown[] }>;
type Sometimes = Extract<Members, { omitUnless: readonly unknown[] }>;
/** A data row as DATA_ROW_MEMBERS writes it. */
type DataRowOfMembers = { [M in Always as M['key']]: WireOf<M> } & { [M in Sometimes as M['key']]?: number };
// DataRowWire (wire/uplink.ts) and the members say the same row: these lines stop compiling when the two part.
const _membersWriteWire: (row: DataRowOfMembers) => DataRowWire = (row) => row;
const _wireIsMembers: (row: Required<DataRowWire>) => Required<DataRowOfMembers> = (row) => row;
const _sameKeys: [keyof DataRowWire] extends [keyof DataRowOfMembers] ? ([keyof DataRowOfMembers] extends [keyof DataRowWire] ? true : never) : never = true;
void _membersWriteWire;
void _wireIsMembers;
void _sameKeys;

/** The stored columns a data row is made of, in the order the members first read them. */
export const DATA_ROW_STORED_COLUMNS = [
  ...new Set(
    DATA_ROW_MEMBERS.flatMap((m): ColumnsOf<Members>[] => {
      switch (m.kind) {
        case 'id':
          return [m.column];
        case 'unix':
        case 'iso':
          return ['received_at', 'ts_device'];
        case 'number':
          return 'omitUnless' in m ? [...m.omitUnless, m.column] : [m.column];
      }
    }),
  ),
];

/** What a data row is made of: the reads of data rows select these columns only (DATA_ROW_COLUMNS in libs/persistence). */
export type StoredDataRow = Pick<StoredUplink, ColumnsOf<Members>>;

type MemberRead = (row: StoredDataRow, at: Date) => number | string | null;

/**
 * Each member's key, reader and the columns that must hold values for it to be written, made
 * once: toDataRowWire runs for every row of the data cache's rendering and of the exports.
 */
const STEPS: readonly { key: string; read: MemberRead; needs: readonly (keyof StoredDataRow)[] }[] = DATA_ROW_MEMBERS.map((m: DataRowMember) => {
  switch (m.kind) {
    case 'id':
      return { key: m.key, read: (row) => Number(row[m.column]), needs: [] };
    case 'unix':
      return { key: m.key, read: (_row, at) => toUnix(at), needs: [] };
    case 'iso':
      return { key: m.key, read: (_row, at) => formatIsoUtc(at), needs: [] };
    case 'number': {
      const column = m.column as keyof StoredDataRow;
      return { key: m.key, read: (row) => row[column] as number | null, needs: (m.omitUnless ?? []) as readonly (keyof StoredDataRow)[] };
    }
  }
});

/** A data row: DATA_ROW_MEMBERS in their order, a member with `omitUnless` only where those columns hold values. */
export function toDataRowWire(row: StoredDataRow): DataRowWire {
  const at = measuredAt(row);
  const out: Record<string, number | string | null> = {};
  members: for (const { key, read, needs } of STEPS) {
    for (const column of needs) if (row[column] === null) continue members;
    out[key] = read(row, at);
  }
  return out as unknown as DataRowWire;
}

/** A data row's JSON as toDataRowWire writes it begins with its uid (DATA_ROW_MEMBERS' first member). */
const ROW_START = `{"${DATA_ROW_MEMBERS[0].key}":`;

/**
 * The uid of the last data row in a text of rows joined with commas (a data cache chunk, a
 * dataJson batch); null when the text holds none. Found from the end, without parsing the rest.
 */
export function lastDataRowUid(rows: string): string | null {
  const start = rows.lastIndexOf(ROW_START);
  if (start < 0) return null;
  return /^\d+/.exec(rows.slice(start + ROW_START.length, start + ROW_START.length + 24))?.[0] ?? null;
}

/**
 * The value of a data type (by alias) in a stored uplink: its column (COLUMN_DATA_TYPES), the RSSI
 * rounded as the record shows it. Written out alias by alias: readers made from COLUMN_DATA_TYPES
 * in a loop share one property access, which reads about 40 % slower over the aliases of a filter
 * (docs/architecture.md, "Adding an uplink column"). The type asks for every alias of
 * COLUMN_DATA_TYPES; uplink-mapping.spec.ts fails, naming the alias, when one reads another column.
 */
const MEMBER: Readonly<Record<ColumnDataType, (row: StoredUplink) => number | string | null>> = {
  LAT: (r) => r.lat,
  LON: (r) => r.lon,
  ALT: (r) => r.alt,
  geoloc_LAT: (r) => r.geoloc_lat,
  geoloc_LON: (r) => r.geoloc_lon,
  geoloc_ALT: (r) => r.geoloc_alt,
  temperature: (r) => r.temperature,
  humidity: (r) => r.humidity,
  battery_voltage: (r) => r.battery_voltage,
  battery: (r) => r.battery_voltage,
  battery_percent: (r) => r.battery_percent,
  RSSI: (r) => int(r.rssi),
  SNR: (r) => r.snr,
  SF: (r) => r.sf,
};

function decodedNumber(alias: string) {
  return (r: StoredUplink) => {
    const v = r.decoded?.[alias];
    return typeof v === 'number' ? v : null;
  };
}

/** The reader of a filter member, or null when no data type of that alias exists. */
export function filterMember(alias: string, knownAliases: Set<string>): ((row: StoredUplink) => number | string | null) | null {
  if (!knownAliases.has(alias)) return null;
  return (MEMBER as Readonly<Record<string, (row: StoredUplink) => number | string | null>>)[alias] ?? decodedNumber(alias);
}

export function toFilteredRowWire(
  row: StoredUplink,
  members: [string, (row: StoredUplink) => number | string | null][],
): Record<string, number | string | null> {
  const out: Record<string, number | string | null> = { uid: Number(row.uid), ts_unix: toUnix(measuredAt(row)), ts_net_unix: toUnix(row.received_at) };
  for (const [alias, read] of members) out[alias] = read(row);
  return out;
}
