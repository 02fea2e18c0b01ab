import { Inject, Injectable } from '@nestjs/common';
import { RateLimitsRepository } from '@dts/persistence';
import { APP_CONFIG, type AppConfig, REDIS_CLIENT, type RedisClient } from '@dts/platform';
import { RateLimiterRedis } from 'rate-limiter-flexible';
import { ApiException } from '../http/api.exception';

/** The window failures are counted in. */
const WINDOW_MS = 15 * 60_000;

/**
 * Failed password checks per account name (login and check), from any address: the per-address
 * limit alone falls to an attacker with many addresses. Counted by the submitted name, lower-cased,
 * whether or not such an account exists (the answer must not tell). Past LOGIN_FAILURES_PER_ACCOUNT
 * in 15 minutes the name is refused with 429 until the window ends, the right password too: the
 * price is that an attacker can hold one account's logins back, never get in. Shared by every
 * instance: on Redis (single or Cluster) through rate-limiter-flexible (the library's "failed logins"
 * pattern: `get` to check, `penalty` to count; the key `<prefix>:rl:login-failures:<name>` as
 * before, so counts survive an upgrade), else in PostgreSQL's rate_limits table.
 */
@Injectable()
export class LoginFailures {
  private readonly redisLimiter: RateLimiterRedis | null;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(REDIS_CLIENT) redis: RedisClient | null,
    private readonly limits: RateLimitsRepository,
  ) {
    this.redisLimiter = redis
      ? new RateLimiterRedis({
          storeClient: redis,
          keyPrefix: `${config.redis.prefix}:rl:login-failures`,
          points: config.loginFailuresPerAccount,
          duration: WINDOW_MS / 1000,
        })
      : null;
  }

  /** Throws 429 RATE_LIMITED while the name has used up its failures. */
  async check(login: string): Promise<void> {
    const { hits, ttlMs } = this.redisLimiter ? await this.redisState(this.name(login)) : await this.limits.peek(this.key(login));
    if (hits >= this.config.loginFailuresPerAccount) {
      throw new ApiException(
        [{ code: 'RATE_LIMITED', message: 'too many failed attempts for this account: try again later' }],
        Math.max(1, Math.ceil(ttlMs / 1000)),
      );
    }
  }

  async failed(login: string): Promise<void> {
    // Counted only: the limit is applied by check(), never by the counter itself.
    if (this.redisLimiter) await this.redisLimiter.penalty(this.name(login), 1);
    else await this.limits.increment(this.key(login), WINDOW_MS, 2_000_000_000, 0);
  }

  private name(login: string): string {
    return login.toLowerCase().slice(0, 256);
  }

  private key(login: string): string {
    return `${this.config.redis.prefix}:rl:login-failures:${this.name(login)}`;
  }

  private async redisState(name: string): Promise<{ hits: number; ttlMs: number }> {
    const res = await this.redisLimiter!.get(name);
    return { hits: res?.consumedPoints ?? 0, ttlMs: Math.max(0, res?.msBeforeNext ?? 0) };
  }
}
