/** GET /cache/status (CONTRACT §5). */
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
