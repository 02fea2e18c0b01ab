export interface VersionWire {
  version: string;
  commit: string | null;
  api_version: string;
  started_unix: number;
}

/**
 * `metrics`: the scrape token (METRICS_TOKEN) when one is configured, nothing otherwise; account
 * credentials never open such a route.
 */
export type RouteAuthLevel = 'none' | 'user' | 'admin' | 'ingest' | 'metrics';
export const ROUTE_AUTH_LEVELS: readonly RouteAuthLevel[] = ['none', 'user', 'admin', 'ingest', 'metrics'];

export interface RouteWire {
  method: string;
  path: string;
  auth: RouteAuthLevel;
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
