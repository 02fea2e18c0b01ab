import { accountRetentionDays, type AccountWire, formatSqlTimestamp } from '@dts/domain';
import type { AccountEntity } from '@dts/persistence';

/** `platformRetentionDays` is UPLINK_RETENTION_DAYS, in force where the account has no value of its own. */
export function toAccountWire(a: AccountEntity, platformRetentionDays: number | null): AccountWire {
  return {
    id: a.id,
    username: a.username,
    // Empty is null on the wire (docs/api.md §2).
    fullname: a.fullname || null,
    email: a.email,
    email_verified: a.emailVerifiedAt !== null,
    email_pending: a.emailPending,
    password: '********',
    consent: a.consent === 1 ? 1 : 0,
    active: a.active === 1 ? 1 : 0,
    groupid: a.groupid,
    created: formatSqlTimestamp(a.createdAt),
    last_login: a.lastLoginAt ? formatSqlTimestamp(a.lastLoginAt) : null,
    subscription: a.subscription,
    expiration: a.expiresOn,
    max_devices: a.maxDevices,
    login_count: a.loginCount,
    uplink_retention_effective_days: accountRetentionDays(a.uplinkRetentionDays, platformRetentionDays),
  };
}
