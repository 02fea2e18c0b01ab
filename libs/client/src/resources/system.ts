import type {
  AdminAccountDeletedWire,
  AdminAccountDeleteQuery,
  AdminAccountListMetaWire,
  AdminAccountListQuery,
  AdminAccountUpdateRequest,
  AdminAccountWire,
  AdminInfoWire,
  AdminPasswordResetWire,
  MemberWire,
  AuditEventWire,
  AuditPageMetaWire,
  AuditQuery,
  CacheDeviceEntryWire,
  CacheEntryListMetaWire,
  CacheEntryListQuery,
  CacheEntryWire,
  CacheInvalidatedAllWire,
  CacheInvalidatedWire,
  CacheTotalsWire,
  FeedbackCreatedWire,
  FeedbackRequest,
  RouteWire,
  VersionWire,
} from '@dts/domain';
import { ROUTES } from '../routes';
import type { Transport } from '../transport';
import { query } from './request-helpers';

/** Terminus' health report (`/health/live`, `/health/ready`): status plus one entry per check. */
export interface HealthWire {
  status: string;
  info?: Record<string, { status: string; [key: string]: unknown }>;
  error?: Record<string, { status: string; [key: string]: unknown }>;
  details: Record<string, { status: string; [key: string]: unknown }>;
}

export const cacheApi = (t: Transport) => ({
  status: () => t.data<CacheTotalsWire>(ROUTES.cacheStatus),
  entry: (eui: string) => t.data<CacheEntryWire>(ROUTES.cacheEntry, { params: { eui } }),
  /** Every live device's entry, by EUI; `meta.next_cursor` is the next page's `cursor`. */
  entries: async (q: CacheEntryListQuery = {}) => {
    const res = await t.request<CacheDeviceEntryWire[], CacheEntryListMetaWire>(ROUTES.cacheEntries, { query: query(q) });
    return { entries: res.data, meta: res.meta };
  },
  invalidate: (eui: string) => t.data<CacheInvalidatedWire>(ROUTES.cacheInvalidate, { params: { eui } }),
  invalidateAll: () => t.data<CacheInvalidatedAllWire>(ROUTES.cacheInvalidateAll),
});

export const systemApi = (t: Transport) => ({
  version: () => t.data<VersionWire>(ROUTES.systemVersion, { credentials: 'none' }),
  /** Every route the running build serves, with the credentials it needs. */
  routes: () => t.data<RouteWire[]>(ROUTES.systemRoutes, { credentials: 'none' }),
  feedback: (body: FeedbackRequest) => t.data<FeedbackCreatedWire>(ROUTES.systemFeedback, { body }),
  live: () => t.data<HealthWire>(ROUTES.healthLive, { credentials: 'none' }),
  ready: () => t.data<HealthWire>(ROUTES.healthReady, { credentials: 'none' }),
  /** Prometheus text format; needs a client whose `token` is the METRICS_TOKEN when one is configured. */
  metrics: async () => (await t.raw(ROUTES.metrics, {}, 'text/plain')).text(),
  /** The deployment-wide gauges (queue depths, commands by status), the same on every instance. */
  clusterMetrics: async () => (await t.raw(ROUTES.metricsCluster, {}, 'text/plain')).text(),
});

export const adminApi = (t: Transport) => ({
  info: () => t.data<AdminInfoWire>(ROUTES.adminInfo),
  /** Accounts by username with their device counts; `meta.next_cursor` is the next page's `cursor`. */
  accounts: async (q: AdminAccountListQuery = {}) => {
    const res = await t.request<AdminAccountWire[], AdminAccountListMetaWire>(ROUTES.adminAccounts, { query: query(q) });
    return { accounts: res.data, meta: res.meta };
  },
  /** Expiration, device limit, retention; `active: 0` disables the account (sessions and tokens stop everywhere). */
  updateAccount: (id: number, body: AdminAccountUpdateRequest) => t.data<AdminAccountWire>(ROUTES.adminAccountUpdate, { params: { id }, body }),
  /** An organisation's members and their roles. */
  members: (id: number) => t.data<MemberWire[]>(ROUTES.adminAccountMembers, { params: { id } }),
  /** Mails the account a password reset link. */
  passwordReset: (id: number) => t.data<AdminPasswordResetWire>(ROUTES.adminAccountPasswordReset, { params: { id } }),
  /** The audit log, newest first, a page at a time; `meta.next_cursor` is the next page's `cursor`. */
  audit: async (q: Omit<AuditQuery, 'format'> = {}) => {
    const res = await t.request<AuditEventWire[], AuditPageMetaWire>(ROUTES.adminAudit, { query: query(q) });
    return { events: res.data, meta: res.meta };
  },
  /** Deletes the account; its devices deleted with it or handed to `to` (a username). */
  deleteAccount: (id: number, q: AdminAccountDeleteQuery) => t.data<AdminAccountDeletedWire>(ROUTES.adminAccountDelete, { params: { id }, query: query(q) }),
});
