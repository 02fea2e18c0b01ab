import { accountRetentionDays, DEFAULT_NETWORK_TYPE, type DeviceMetaWire, effectiveRetentionDays, toUnix } from '@dts/domain';
import type { DeviceMetaRow } from '@dts/persistence';

const unix = (d: Date | null) => (d ? toUnix(d) : null);

/**
 * Every member of the device metadata (docs/api.md §15), null where empty. `platformRetentionDays`
 * is UPLINK_RETENTION_DAYS, which the effective retention falls back to.
 */
export function toDeviceMetaWire(row: DeviceMetaRow, platformRetentionDays: number | null): DeviceMetaWire {
  return {
    uid: row.uid,
    device_ref: row.uid,
    id: row.uid,
    user_ref: row.user_ref,
    owner_ref: row.owner_id,
    decoder_ref: row.decoder_ref,
    type_ref: row.type_ref,
    network_ref: row.network_ref,
    icon_ref: row.icon_ref,
    ts_activity_first_unix: unix(row.ts_activity_first),
    ts_activity_last_unix: unix(row.ts_activity_last),
    ts_data_first_unix: unix(row.ts_data_first),
    ts_data_last_unix: unix(row.ts_data_last),
    battery_percent: row.battery_percent,
    battery_voltage: row.battery_voltage,
    temperature_dc: row.temperature_dc,
    installation_lat: row.installation_lat,
    installation_lon: row.installation_lon,
    lat: row.lat,
    lon: row.lon,
    alt: row.alt,
    firmware_version: row.firmware_version,
    signal_percent: row.signal_percent,
    signal_dbm: row.signal_dbm,
    margin_db: row.margin_db,
    uplink_retention_days: row.uplink_retention_days,
    uplink_retention_effective_days: effectiveRetentionDays(row.uplink_retention_days, accountRetentionDays(row.account_retention_days, platformRetentionDays)),
    devEUI: row.eui,
    type: row.network_type ?? DEFAULT_NETWORK_TYPE,
    username: row.owner_username,
    label: row.label,
    folder: row.folder,
    tags: row.tags ?? null,
  };
}
