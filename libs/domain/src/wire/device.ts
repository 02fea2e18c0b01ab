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
