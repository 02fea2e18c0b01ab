/** GET /cache/status (docs/api.md §5). */
export interface CacheTotalsWire {
  devices: number;
  entries: number;
  bytes: number;
  stale: number;
}

/** GET /cache/status/{eui}. */
export interface CacheEntryWire {
  devEUI: string;
  version: number;
  rows: number;
  built_unix: number | null;
  stale: boolean;
}

/** POST /cache/invalidate/{eui} (202). */
export interface CacheInvalidatedWire {
  devEUI: string;
  version: number;
}

/** POST /cache/invalidate/all (202). */
export interface CacheInvalidatedAllWire {
  devices: number;
}

/** GET /cache/entries: one device's entry with what an administrator needs to tell it apart. */
export interface CacheDeviceEntryWire extends CacheEntryWire {
  label: string;
  /** The owner's username. */
  owner: string;
  bytes: number;
}

/**
 * GET /cache/entries's `meta`: pass `next_cursor` as `cursor` for the next page. The counts are of
 * every entry the same `stale` lists, over all pages (`total` = fresh + stale + never_built): what
 * the listing shows, counted by the same rule that marks each row.
 */
export interface CacheEntryListMetaWire {
  next_cursor: string | null;
  total: number;
  /** Built for the device's current version. */
  fresh: number;
  /** Built for an older version. */
  stale: number;
  /** Never built: `built_unix` null (`stale: true` on the row). */
  never_built: number;
}

export interface CacheEntryListQuery {
  /** Only entries that are stale (built for an older version) — true — or only the others. */
  stale?: boolean;
  limit?: number;
  cursor?: string;
}

export const CACHE_ENTRIES_MAX_LIMIT = 500;
