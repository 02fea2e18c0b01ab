import { accountRetentionDays, type AdminAccountWire, formatSqlTimestamp } from '@dts/domain';
import type { AdminAccountRow } from '@dts/persistence';

/** `platformRetentionDays` is UPLINK_RETENTION_DAYS, in force where the account has no value of its own. */
export function toAdminAccountWire(row: AdminAccountRow, platformRetentionDays: number | null): AdminAccountWire {
  return {
    id: row.id,
    username: row.username,
    email: row.email,
    // Empty is null on the wire (docs/api.md §2).
    fullname: row.fullname || null,
    groupid: row.groupid,
    active: row.active === 1 ? 1 : 0,
    created: formatSqlTimestamp(row.created_at),
    last_login: row.last_login_at ? formatSqlTimestamp(row.last_login_at) : null,
    expiration: row.expires_on,
    max_devices: row.max_devices,
    devices: row.devices,
    uplink_retention_days: row.uplink_retention_days,
    uplink_retention_effective_days: accountRetentionDays(row.uplink_retention_days, platformRetentionDays),
    kind: row.kind,
    members: row.members,
  };
}
