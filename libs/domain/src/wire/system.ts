import type { OrgRole } from './organisation';
import type { KeyRight } from './token';
export interface VersionWire {
  version: string;
  commit: string | null;
  api_version: string;
  started_unix: number;
}

/**
 * `metrics`: the scrape token (METRICS_TOKEN); account credentials never open such a route. A
 * metrics route of a service with no token configured answers anyone, and GET /routes lists it as
 * `none`.
 */
export type RouteAuthLevel = 'none' | 'user' | 'admin' | 'ingest' | 'metrics';
export const ROUTE_AUTH_LEVELS: readonly RouteAuthLevel[] = ['none', 'user', 'admin', 'ingest', 'metrics'];

export interface RouteWire {
  method: string;
  path: string;
  auth: RouteAuthLevel;
  /**
   * For a route that acts in an account (`auth` user or ingest, not personal): the least role a
   * member needs when the request acts in an organisation (docs/api.md §20); null otherwise.
   */
  role: OrgRole | null;
  /** The route acts on the person calling, in no organisation: an organisation's key may not call it. */
  personal: boolean;
  /** The right an API key with a list of rights needs for it (docs/api.md §20); null: only a key without a list (or a session). */
  right: KeyRight | null;
}

export interface FeedbackCreatedWire {
  uid: number;
}

export const FEEDBACK_CATEGORIES = ['bug', 'feature', 'question', 'other'] as const;
export type FeedbackCategory = (typeof FEEDBACK_CATEGORIES)[number];

/** GET /admin/info: what an operator checks first. */
export interface AdminInfoWire {
  version: string;
  uptime_s: number;
  accounts: number;
  devices: number;
  uplinks: number;
  /** True when `uplinks` is the planner's estimate (large tables), false when it was counted. */
  uplinks_estimated: boolean;
  /** Jobs waiting, delayed or running per queue. */
  queues: Record<string, number>;
  database: {
    kind: 'embedded' | 'postgresql';
    server_version: string;
    size_bytes: number;
    /** This process's pool. */
    pool: { total: number; idle: number; waiting: number };
  };
  cache: {
    backend: 'postgresql' | 'redis';
    /** Entries built for their device's current version. */
    entries: number;
    bytes: number;
    stale: number;
  };
}

/** GET /admin/accounts: an account as an administrator manages it. */
export interface AdminAccountWire {
  id: number;
  username: string;
  email: string;
  fullname: string | null;
  groupid: number;
  active: 0 | 1;
  created: string;
  last_login: string | null;
  /** `YYYY-MM-DD`: the last day the account may add devices and take data. */
  expiration: string;
  max_devices: number;
  /** Devices the account owns (deleted ones not counted). */
  devices: number;
  /** The account's own retention of raw uplinks in days; null: the platform default applies. */
  uplink_retention_days: number | null;
  /** The retention in force for the account: its own, else the platform default; null: kept forever. */
  uplink_retention_effective_days: number | null;
  /** `organisation`: an account people act in as members (docs/api.md §20); it never signs in. */
  kind: AccountKind;
  /** An organisation's members (GET /admin/accounts/{id}/members); null for a person. */
  members: number | null;
}

export const ACCOUNT_KINDS = ['person', 'organisation'] as const;
export type AccountKind = (typeof ACCOUNT_KINDS)[number];

/** GET /admin/accounts's `meta`. */
export interface AdminAccountListMetaWire {
  total: number;
  next_cursor: string | null;
}

export interface AdminAccountListQuery {
  /** Username or e-mail contains this text, without regard to case. */
  q?: string;
  /** People or organisations only. */
  kind?: AccountKind;
  limit?: number;
  cursor?: string;
}

/** PATCH /admin/accounts/{id}: at least one member. */
export interface AdminAccountUpdateRequest {
  expiration?: string;
  max_devices?: number;
  /** Days (RETENTION_DAYS_MIN–RETENTION_DAYS_MAX) the account's raw uplinks are kept; null: the platform default. */
  uplink_retention_days?: number | null;
  /**
   * 0 disables the account: its sessions end and its API tokens stop, on every instance, at once;
   * it cannot sign in until set to 1 again (its tokens then work again). Not the caller's own.
   */
  active?: 0 | 1;
}

/** What DELETE /admin/accounts/{id} does with the account's devices: an administrator chooses, nothing is assumed. */
export const ADMIN_DEVICE_FATES = ['delete', 'hand_over'] as const;
export type AdminDeviceFate = (typeof ADMIN_DEVICE_FATES)[number];

/** DELETE /admin/accounts/{id}'s query. */
export interface AdminAccountDeleteQuery {
  devices: AdminDeviceFate;
  /** With `hand_over`: the username of the account that receives every device. */
  to?: string;
}

/** DELETE /admin/accounts/{id}'s answer. */
export interface AdminAccountDeletedWire {
  id: number;
  deleted: true;
  /** Devices deleted with the account. */
  devices_deleted: number;
  /** Devices handed to `to` (their codecs and networks of the deleted account fall back to the defaults). */
  devices_handed_over: number;
  /** The receiving account's id, with `hand_over`. */
  to: number | null;
}

/** POST /admin/accounts/{id}/password-reset's answer: a reset link is on its way to `email`. */
export interface AdminPasswordResetWire {
  id: number;
  email: string;
}

export const ADMIN_ACCOUNTS_MAX_LIMIT = 500;
/** The highest `max_devices` an administrator may set. */
export const MAX_DEVICES_LIMIT = 10_000_000;
