import { DATA_ROW_MEMBERS, RECORD_COLUMN_MEMBERS, type RawUplinkWire, type RecordOwnMembers, type UplinkRecordWire } from '@dts/domain';
import { csvLine } from '../../common/http/stream-lines';

/*
 * CSV columns of the history reads. A CSV header comes before the first row, so the columns are
 * fixed up front: the wire members in their wire order. The `satisfies` lists fail to compile when
 * a wire type gains or loses a member of its own; the record's members that show a column and the
 * data rows' members come from their lists in libs/domain. The CSV cannot drift from the JSON form.
 */

const RAW_UPLINK_MEMBERS = Object.keys({
  uid: 1,
  time_stamp_unix: 1,
  devEUI: 1,
  port: 1,
  SF: 1,
  RSSI: 1,
  SNR: 1,
  payload_raw: 1,
  network: 1,
  geoloc_lat: 1,
  geoloc_lon: 1,
  geoloc_alt: 1,
  api_ref: 1,
  user_ref: 1,
  device_ref: 1,
} satisfies Record<keyof RawUplinkWire, 1>) as (keyof RawUplinkWire)[];

/** The record's own members, in wire order; the members that show a column follow, from RECORD_COLUMN_MEMBERS. */
const RECORD_MEMBERS: Exclude<keyof UplinkRecordWire, 'uplink'>[] = [
  ...(Object.keys({
    uplink: 1,
    payload_decoded: 1,
    payload_port: 1,
    payload_length: 1,
    payload_hex: 1,
    payload_valid: 1,
    payload_errors: 1,
    payload_warnings: 1,
    ts_network_unix: 1,
    ts_net_unix: 1,
    ts_gps_unix: 1,
    ts_unix: 1,
  } satisfies Record<keyof RecordOwnMembers, 1>).filter((m) => m !== 'uplink') as Exclude<keyof RecordOwnMembers, 'uplink'>[]),
  ...RECORD_COLUMN_MEMBERS.map((m) => m.key),
];

/**
 * Table rows in CSV: the fixed-shape `uplink` object is spread into `uplink.<member>` columns (a
 * spreadsheet can sort and filter them); `payload_decoded`, whose members depend on the decoder,
 * stays one column of JSON text.
 */
export const TABLE_CSV_HEADER = csvLine([...RAW_UPLINK_MEMBERS.map((m) => `uplink.${m}`), ...RECORD_MEMBERS]);

export function tableCsvLine(row: UplinkRecordWire): string {
  return csvLine([...RAW_UPLINK_MEMBERS.map((m) => row.uplink[m]), ...RECORD_MEMBERS.map((m) => row[m])]);
}

/** Members of every unfiltered data row, in wire order (DATA_ROW_MEMBERS of libs/domain). */
export const DATA_MEMBERS: readonly string[] = DATA_ROW_MEMBERS.flatMap((m) => ('omitUnless' in m ? [] : [m.key]));
/** Members only rows with a network position carry: columns only when the device's data has them. */
export const DATA_POSITION_MEMBERS: readonly string[] = DATA_ROW_MEMBERS.flatMap((m) => ('omitUnless' in m ? [m.key] : []));
/** Members every filtered row leads with, before the requested ones. */
export const FILTERED_MEMBERS = ['uid', 'ts_unix', 'ts_net_unix'] as const;

/** A CSV of rows that are flat objects, by a column list known before the first row. */
export function objectCsv(columns: readonly string[]): { header: string; line: (row: Record<string, unknown>) => string } {
  return { header: csvLine(columns), line: (row) => csvLine(columns.map((c) => row[c])) };
}

export const ndjsonLine = (row: unknown) => `${JSON.stringify(row)}\n`;
