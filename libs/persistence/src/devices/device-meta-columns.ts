import { nullable, required, type RowOf, sqlList } from '../sql/columns';

/**
 * The devices columns that device metadata shows (GET /user/device/meta, docs/api.md §4), written
 * once: the row type and the SELECT list derive from it.
 */
export const DEVICE_META_COLUMNS = {
  uid: required('integer'),
  eui: required('text'),
  owner_id: required('integer'),
  user_ref: nullable('integer'),
  label: required('text'),
  folder: nullable('text'),
  tags: nullable('jsonb'),
  type_ref: nullable('integer'),
  decoder_ref: nullable('integer'),
  network_ref: nullable('integer'),
  icon_ref: nullable('integer'),
  installation_lat: nullable('double precision'),
  installation_lon: nullable('double precision'),
  lat: nullable('double precision'),
  lon: nullable('double precision'),
  alt: nullable('double precision'),
  battery_percent: nullable('double precision'),
  battery_voltage: nullable('double precision'),
  temperature_dc: nullable('double precision'),
  signal_percent: nullable('double precision'),
  signal_dbm: nullable('double precision'),
  /** The link margin (dB) the network last reported (ChirpStack `status`). */
  margin_db: nullable('double precision'),
  firmware_version: nullable('text'),
  ts_activity_first: nullable('timestamptz'),
  ts_activity_last: nullable('timestamptz'),
  ts_data_first: nullable('timestamptz'),
  ts_data_last: nullable('timestamptz'),
  /** The device's own retention of raw uplinks (days), set by its owner; null: its account's. */
  uplink_retention_days: nullable('integer'),
} as const;

/**
 * A device row with the names its metadata shows (the owner's username, the network's type) and
 * the owner's own retention, from which with the platform default the effective one follows.
 */
export type DeviceMetaRow = RowOf<typeof DEVICE_META_COLUMNS> & {
  owner_username: string;
  network_type: string | null;
  account_retention_days: number | null;
};

/** The columns of a DeviceMetaRow, over META_FROM. */
export const META_COLUMNS = sqlList(
  [
    ...Object.keys(DEVICE_META_COLUMNS).map((c) => `d.${c}`),
    'a.username AS owner_username',
    'nt.type AS network_type',
    'a.uplink_retention_days AS account_retention_days',
  ],
  '       ',
);

/** The tables behind META_COLUMNS; the caller adds the WHERE (and joins what it filters on). */
export const META_FROM = `FROM devices d
  JOIN accounts a ON a.id = d.owner_id
  LEFT JOIN networks n ON n.uid = d.network_ref
  LEFT JOIN network_types nt ON nt.uid = n.type_ref`;

/** Device metadata rows; the caller adds the WHERE. */
export const META_SELECT = `SELECT ${META_COLUMNS}
  ${META_FROM}`;
