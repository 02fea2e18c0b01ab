import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

export interface RateLimitState {
  totalHits: number;
  /** Seconds until the window ends. */
  timeToExpire: number;
  isBlocked: boolean;
  /** Seconds until the block ends. */
  timeToBlockExpire: number;
  /** Milliseconds until the window ends. */
  expiresInMs: number;
}

/** Fixed-window counters in one upsert each, shared by every api instance (no Redis configured). */
@Injectable()
export class RateLimitsRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /** The key's hits in its current window (0 when none), without counting one. */
  async peek(key: string): Promise<{ hits: number; ttlMs: number }> {
    const rows: { hits: number; ttl_ms: number }[] = await this.ds.query(
      `SELECT hits, ceil(extract(epoch FROM (expires_at - now())) * 1000)::int AS ttl_ms FROM rate_limits WHERE key = $1 AND expires_at > now()`,
      [key],
    );
    return rows[0] ? { hits: Number(rows[0].hits), ttlMs: Number(rows[0].ttl_ms) } : { hits: 0, ttlMs: 0 };
  }

  /** Counts `amount` hits (one by default) in the key's window and answers its state after them. */
  async increment(key: string, ttlMs: number, limit: number, blockMs: number, amount = 1): Promise<RateLimitState> {
    const rows = await this.ds.query(
      `WITH hit AS (
         INSERT INTO rate_limits AS r (key, hits, expires_at) VALUES ($1, $5, now() + $2 * interval '1 millisecond')
         ON CONFLICT (key) DO UPDATE SET
           hits = CASE WHEN r.expires_at <= now() THEN $5 ELSE r.hits + $5 END,
           expires_at = CASE WHEN r.expires_at <= now() THEN EXCLUDED.expires_at ELSE r.expires_at END,
           blocked_until = CASE
             WHEN r.blocked_until > now() THEN r.blocked_until
             WHEN (CASE WHEN r.expires_at <= now() THEN $5 ELSE r.hits + $5 END) > $3 THEN now() + $4 * interval '1 millisecond'
             ELSE NULL END
         RETURNING hits, expires_at, blocked_until)
       SELECT hits,
              ceil(extract(epoch FROM (expires_at - now())))::int AS ttl,
              ceil(extract(epoch FROM (expires_at - now())) * 1000)::int AS ttl_ms,
              coalesce(ceil(extract(epoch FROM (blocked_until - now())))::int, 0) AS block_ttl
       FROM hit`,
      [key, ttlMs, limit, blockMs, amount],
    );
    const row = rows[0];
    const blockTtl = Number(row.block_ttl);
    return {
      totalHits: Number(row.hits),
      timeToExpire: Math.max(0, Number(row.ttl)),
      isBlocked: blockTtl > 0,
      timeToBlockExpire: Math.max(0, blockTtl),
      expiresInMs: Math.max(0, Number(row.ttl_ms)),
    };
  }
}
