import type { RateLimitsRepository, RateLimitState } from '@dts/persistence';
import type { RedisClient } from '@dts/platform';

/** Fixed-window counters every instance shares: `amount` hits counted at once, the window's state after them. */
export interface SharedCounters {
  add(key: string, amount: number, ttlMs: number, limit: number, blockMs: number, throttler: string): Promise<RateLimitState>;
}

/**
 * The @nest-lab/throttler-storage-redis script (its keys, so that instances of either version count
 * together), counting `amount` hits, sent by its SHA (EVALSHA, the text only when Redis does not
 * know it yet) rather than whole on every call.
 */
const SCRIPT = `local hitKey = KEYS[1]
local blockKey = KEYS[2]
local ttl = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
local blockDuration = tonumber(ARGV[3])
local amount = tonumber(ARGV[4])
local totalHits = redis.call('INCRBY', hitKey, amount)
local timeToExpire = redis.call('PTTL', hitKey)
if timeToExpire <= 0 then
  redis.call('PEXPIRE', hitKey, ttl)
  timeToExpire = ttl
end
local isBlocked = redis.call('GET', blockKey)
local timeToBlockExpire = 0
if isBlocked then
  timeToBlockExpire = redis.call('PTTL', blockKey)
elseif totalHits > limit then
  redis.call('SET', blockKey, 1, 'PX', blockDuration)
  isBlocked = '1'
  timeToBlockExpire = blockDuration
end
if isBlocked and timeToBlockExpire <= 0 then
  redis.call('DEL', blockKey)
  redis.call('SET', hitKey, amount, 'PX', ttl)
  totalHits = amount
  timeToExpire = ttl
  isBlocked = false
end
return { totalHits, timeToExpire, isBlocked and 1 or 0, timeToBlockExpire }`;

type ThrottleHits = (hitKey: string, blockKey: string, ttl: number, limit: number, block: number, amount: number) => Promise<[number, number, number, number]>;

export class RedisSharedCounters implements SharedCounters {
  private readonly hits: ThrottleHits;

  constructor(redis: RedisClient) {
    // defineCommand: EVALSHA, falling back to EVAL once when the script is not loaded.
    if (!('dtsThrottleHits' in redis)) redis.defineCommand('dtsThrottleHits', { numberOfKeys: 2, lua: SCRIPT });
    this.hits = (redis as unknown as { dtsThrottleHits: ThrottleHits }).dtsThrottleHits.bind(redis);
  }

  async add(key: string, amount: number, ttlMs: number, limit: number, blockMs: number, throttler: string): Promise<RateLimitState> {
    const [totalHits, expiresInMs, blocked, blockMs2] = await this.hits(
      `{${key}:${throttler}}:hits`,
      `{${key}:${throttler}}:blocked`,
      ttlMs,
      limit,
      blockMs,
      amount,
    );
    return {
      totalHits,
      timeToExpire: Math.ceil(expiresInMs / 1000),
      isBlocked: blocked === 1,
      timeToBlockExpire: Math.ceil(blockMs2 / 1000),
      expiresInMs,
    };
  }
}

export class PgSharedCounters implements SharedCounters {
  constructor(private readonly limits: RateLimitsRepository) {}

  add(key: string, amount: number, ttlMs: number, limit: number, blockMs: number): Promise<RateLimitState> {
    return this.limits.increment(key, ttlMs, limit, blockMs, amount);
  }
}
