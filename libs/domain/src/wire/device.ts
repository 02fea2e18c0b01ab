import type { AnyJson } from './json';
/** Device metadata (docs/api.md §15): every member present, null where empty. */
export interface DeviceMetaWire {
  uid: number;
  device_ref: number | null;
  id: number | null;
  user_ref: number | null;
  owner_ref: number | null;
  decoder_ref: number | null;
  type_ref: number | null;
  network_ref: number | null;
  icon_ref: number | null;
  ts_activity_first_unix: number | null;
  ts_activity_last_unix: number | null;
  ts_data_first_unix: number | null;
  ts_data_last_unix: number | null;
  battery_percent: number | null;
  battery_voltage: number | null;
  temperature_dc: number | null;
  installation_lat: number | null;
  installation_lon: number | null;
  lat: number | null;
  lon: number | null;
  alt: number | null;
  firmware_version: string | null;
  signal_percent: number | null;
  signal_dbm: number | null;
  /** The link margin in dB the network last reported for the device (ChirpStack `status`); null until one did. */
  margin_db: number | null;
  /**
   * The device's own retention of raw uplinks in days, set by its owner (POST /user/device/meta),
   * no longer than its account's; null: none of its own (an addition, docs/api.md §15).
   */
  uplink_retention_days: number | null;
  /**
   * The retention in force for the device's raw uplinks: its own where shorter, else its account's
   * (the account's own value or the platform default); null: kept forever.
   */
  uplink_retention_effective_days: number | null;
  devEUI: string;
  type: string;
  username: string;
  label: string;
  folder: string | null;
  /** Any JSON the owner gave: a list of strings or an object of them, usually. */
  tags: AnyJson;
}

export type DeviceRelation = 'owner' | 'shared' | 'none';

export interface DeviceRelationWire {
  result: DeviceRelation;
}

export interface DeviceRemovedWire {
  devEUI: string;
  removed: true;
}

export interface DeviceShareWire {
  devEUI: string;
  user_id: number;
  username: string;
}

/** GET /user/device/share/{eui}: one account the device is shared with. */
export interface DeviceShareEntryWire {
  user_id: number;
  username: string;
}

export interface DeviceUnsharedWire {
  devEUI: string;
  user_id: number;
  removed: true;
}

export const DEVICE_LABEL_MAX_LENGTH = 100;
export const DEVICE_FOLDER_MAX_LENGTH = 200;
export const AUTOCOMPLETE_LIMIT = 25;
/** Shown as `type` for a device whose network has none. */
export const DEFAULT_NETWORK_TYPE = 'LoRaWAN';

/** Signal quality in percent from RSSI: −120 dBm and below is 0, −30 dBm and above 100. */
export function signalPercent(rssiDbm: number): number {
  return Math.round(Math.min(100, Math.max(0, ((rssiDbm + 120) / 90) * 100)));
}

/** Where a bulk import came from: our rows (JSON or CSV), or another network server's export. */
export type DeviceImportFormat = 'rows' | 'csv' | 'tts' | 'tts-csv' | 'chirpstack';

/** One device a bulk import registers, with its references resolved (POST /user/device/import). */
export interface DeviceImportRowWire {
  /** 1-based: the row's place in the file (CSV: data rows after the header line). */
  row: number;
  devEUI: string;
  label: string;
  type_ref: number | null;
  decoder_ref: number | null;
  network_ref: number | null;
  icon_ref: number | null;
  folder: string | null;
  tags: AnyJson;
}

/** A problem of an import: a row's member (`rows[3].eui`), or the whole (`rows`, `columns.x`). */
export interface DeviceImportProblemWire {
  /** 1-based row, or null for the whole import. */
  row: number | null;
  field: string;
  code: 'VALIDATION_FAILED' | 'DEVICE_EXISTS' | 'DEVICE_OWNED_ELSEWHERE' | 'DEVICE_LIMIT_REACHED';
  message: string;
}

/** The answer of POST /user/device/import: what was (or, with dry_run, would be) registered. */
export interface DeviceImportWire {
  dry_run: boolean;
  format: DeviceImportFormat;
  /** Rows read. */
  rows: number;
  /** Devices registered (0 in a dry run, and on any problem: all or none). */
  created: number;
  /** Whether the import would register every row. */
  valid: boolean;
  devices: DeviceImportRowWire[];
  /** Per-row problems (a dry run lists them here; the import itself refuses with them). At most 1,000. */
  problems: DeviceImportProblemWire[];
  /** The account's devices before the import, and its limit. */
  devices_owned: number;
  max_devices: number;
}
