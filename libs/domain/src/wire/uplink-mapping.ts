import { bytesToBase64, bytesToHex } from '../payload';
import { formatIsoUtc, toUnix } from '../time';
import type { Measurements } from '../families/decoder';
import type { DataRowWire, UplinkRecordWire } from './uplink';

/** A stored uplink as the mappings read it (the persistence row has this shape). */
export interface StoredUplink extends Measurements {
  uid: string;
  received_at: Date;
  port: number;
  payload: Uint8Array;
  sf: number | null;
  rssi: number | null;
  snr: number | null;
  geoloc_lat: number | null;
  geoloc_lon: number | null;
  geoloc_alt: number | null;
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

/** Every member of the uplink record (docs/api.md §15), null where absent. */
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

/** What a data row is made of: the reads of data rows select these columns only (DATA_ROW_COLUMNS in libs/persistence). */
export type StoredDataRow = Pick<
  StoredUplink,
  'uid' | 'received_at' | 'ts_device' | 'humidity' | 'temperature' | 'battery_voltage' | 'geoloc_lat' | 'geoloc_lon' | 'geoloc_alt'
>;

/** A data row: the overview members always, the network position only where there is one. */
export function toDataRowWire(row: StoredDataRow): DataRowWire {
  const at = measuredAt(row);
  const out: DataRowWire = {
    uid: Number(row.uid),
    ts_unix: toUnix(at),
    time_stamp: formatIsoUtc(at),
    humidity: row.humidity,
    temperature: row.temperature,
    battery: row.battery_voltage,
  };
  if (row.geoloc_lat !== null && row.geoloc_lon !== null) {
    out.geoloc_LAT = row.geoloc_lat;
    out.geoloc_LON = row.geoloc_lon;
    if (row.geoloc_alt !== null) out.geoloc_ALT = row.geoloc_alt;
  }
  return out;
}

/** The value of a data type (by alias) in a stored uplink. */
const MEMBER: Record<string, (row: StoredUplink) => number | string | null> = {
  temperature: (r) => r.temperature,
  humidity: (r) => r.humidity,
  battery_voltage: (r) => r.battery_voltage,
  battery: (r) => r.battery_voltage,
  battery_percent: (r) => r.battery_percent,
  LAT: (r) => r.lat,
  LON: (r) => r.lon,
  ALT: (r) => r.alt,
  geoloc_LAT: (r) => r.geoloc_lat,
  geoloc_LON: (r) => r.geoloc_lon,
  geoloc_ALT: (r) => r.geoloc_alt,
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
  return MEMBER[alias] ?? decodedNumber(alias);
}

export function toFilteredRowWire(
  row: StoredUplink,
  members: [string, (row: StoredUplink) => number | string | null][],
): Record<string, number | string | null> {
  const out: Record<string, number | string | null> = { uid: Number(row.uid), ts_unix: toUnix(measuredAt(row)), ts_net_unix: toUnix(row.received_at) };
  for (const [alias, read] of members) out[alias] = read(row);
  return out;
}
