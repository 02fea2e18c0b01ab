import type { RateLimitsRepository, RateLimitState } from '@dts/persistence';
import type { RedisClient } from '@dts/platform';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';

/** Fixed-window counters every instance shares: `amount` hits counted at once, the window's state after them. */
export interface SharedCounters {
  add(key: string, amount: number, ttlMs: number, limit: number, blockMs: number, throttler: string): Promise<RateLimitState>;
}

/**
 * The Redis key of a window: the name the service's own script used (and @nest-lab/throttler-storage-redis
 * before it), so that a deployment upgraded in place, or instances of both versions during a rolling
 * upgrade, count in the same windows (the value is the same: a hit count expiring with the window).
 * The hash tag is no longer needed for one key, and keeps the name.
 */
export function redisWindowKey(key: string, throttler: string): string {
  return `{${key}:${throttler}}:hits`;
}

/**
 * Redis (single or Cluster) through rate-limiter-flexible's RateLimiterRedis: one script per call
 * (INCRBY of `amount` on the window's one key, its TTL set on the first hit), and at the hit that
 * passes the limit the key rewritten to last the block; after the block a new window starts. One
 * limiter per throttler's settings (the library holds them per limiter), made on first use.
 */
export class RedisSharedCounters implements SharedCounters {
  private readonly limiters = new Map<string, RateLimiterRedis>();

  constructor(private readonly redis: RedisClient) {}

  async add(key: string, amount: number, ttlMs: number, limit: number, blockMs: number, throttler: string): Promise<RateLimitState> {
    const res = await this.limiter(ttlMs, limit, blockMs, throttler)
      .consume(redisWindowKey(key, throttler), amount)
      // Past the limit the library rejects with the window's state; anything else is the store's error.
      .catch((reason: unknown) => {
        if (reason instanceof RateLimiterRes) return reason;
        throw reason;
      });
    const blocked = res.consumedPoints > limit;
    // -1: a key without expiry, which the limiter never leaves; read as a whole window.
    const expiresInMs = res.msBeforeNext < 0 ? ttlMs : res.msBeforeNext;
    return {
      totalHits: res.consumedPoints,
      timeToExpire: Math.ceil(expiresInMs / 1000),
      isBlocked: blocked,
      timeToBlockExpire: blocked ? Math.ceil(expiresInMs / 1000) : 0,
      expiresInMs,
    };
  }

  private limiter(ttlMs: number, limit: number, blockMs: number, throttler: string): RateLimiterRedis {
    const id = `${throttler}:${ttlMs}:${limit}:${blockMs}`;
    let limiter = this.limiters.get(id);
    if (!limiter) {
      // The keys come whole (redisWindowKey): no prefix of the library's own.
      limiter = new RateLimiterRedis({ storeClient: this.redis, keyPrefix: '', points: limit, duration: ttlMs / 1000, blockDuration: blockMs / 1000 });
      this.limiters.set(id, limiter);
    }
    return limiter;
  }
}

/**
 * PostgreSQL (no Redis configured): one upsert in the `rate_limits` table per call. Not the library's
 * RateLimiterPostgres, which needs a table of its own shape and measured slower here
 * (tools/bench/rate-limit-storage.mjs, docs/benchmarks.md).
 */
export class PgSharedCounters implements SharedCounters {
  constructor(private readonly limits: RateLimitsRepository) {}

  add(key: string, amount: number, ttlMs: number, limit: number, blockMs: number): Promise<RateLimitState> {
    return this.limits.increment(key, ttlMs, limit, blockMs, amount);
  }
}
