/** Raw uplink as received (docs/api.md §15). */
export interface RawUplinkWire {
  uid: number;
  time_stamp_unix: number;
  devEUI: string;
  port: number;
  SF: number | null;
  RSSI: number | null;
  SNR: number | null;
  payload_raw: string;
  network: string;
  geoloc_lat: number | null;
  geoloc_lon: number | null;
  geoloc_alt: number | null;
  api_ref: number | null;
  user_ref: number | null;
  device_ref: number | null;
}

/** The table's `issues` filter (docs/api.md §5): uplinks whose decoding reported errors, warnings, either, or neither. */
export const UPLINK_ISSUES = ['errors', 'warnings', 'any', 'none'] as const;
export type UplinkIssues = (typeof UPLINK_ISSUES)[number];

/** One row of GET /user/device/table/{eui}: one per uplink. */
export interface UplinkRecordWire {
  uplink: RawUplinkWire;
  payload_decoded: Record<string, unknown>;
  payload_port: number;
  payload_length: number | string;
  payload_hex: string;
  payload_valid: boolean;
  /** Why the decoder refused the payload (a codec's `errors`, or the decoder's reason); [] when it did not. */
  payload_errors: string[];
  /** The decoder's warnings (a codec's `warnings`); [] for none. */
  payload_warnings: string[];
  ts_network_unix: number | null;
  ts_net_unix: number | null;
  ts_gps_unix: number | null;
  ts_unix: number | null;
  LAT: number | null;
  LON: number | null;
  ALT: number | null;
  geoloc_LAT: number | null;
  geoloc_LON: number | null;
  geoloc_ALT: number | null;
  temperature: number | null;
  humidity: number | null;
  battery_voltage: number | null;
  battery_percent: number | null;
  firmware_version: string | null;
}

/** One row of GET /user/device/data/{eui} (overview form). */
export interface DataRowWire {
  uid: number;
  ts_unix: number;
  time_stamp: string;
  humidity: number | null;
  temperature: number | null;
  battery: number | null;
  geoloc_LAT?: number;
  geoloc_LON?: number;
  geoloc_ALT?: number;
}

/** Filtered data rows carry these plus the requested members. */
export interface FilteredDataRowWire {
  uid: number;
  ts_unix: number;
  ts_net_unix: number | null;
  [member: string]: number | string | null;
}

export interface FilteredDataMetaWire {
  data_types: number[];
  cache_file_version: number;
}

/** GET /test/uplink/{eui}: the newest stored uplink decoded again with the current decoder (nothing stored). */
export interface UplinkTestWire {
  uplink: UplinkRecordWire;
  payload_decoded: Record<string, unknown>;
  decoder: string;
  valid: boolean;
  errors: string[];
  /** The decoder's warnings (a codec's `warnings`). */
  warnings: string[];
}
