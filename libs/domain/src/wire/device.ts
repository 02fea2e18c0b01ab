/** Device metadata (spec "Device metadata"): every member present, null where empty. */
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
  devEUI: string;
  type: string;
  username: string;
  label: string;
  folder: string | null;
  tags: unknown;
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
/** New devices use the built-in simulated network and no decoding until told otherwise. */
export const DEFAULT_NETWORK_REF = 1;
export const DEFAULT_DECODER_REF = 1;

/** Signal quality in percent from RSSI: −120 dBm and below is 0, −30 dBm and above 100. */
export function signalPercent(rssiDbm: number): number {
  return Math.round(Math.min(100, Math.max(0, ((rssiDbm + 120) / 90) * 100)));
}
