import { Inject, Injectable } from '@nestjs/common';
import { RateLimitsRepository } from '@dts/persistence';
import { APP_CONFIG, type AppConfig, REDIS_CLIENT, type RedisClient } from '@dts/platform';
import { ApiException } from '../http/api.exception';

/** The window failures are counted in. */
const WINDOW_MS = 15 * 60_000;

/**
 * Failed password checks per account name (login and check), from any address: the per-address
 * limit alone falls to an attacker with many addresses. Counted by the submitted name, lower-cased,
 * whether or not such an account exists (the answer must not tell). Past LOGIN_FAILURES_PER_ACCOUNT
 * in 15 minutes the name is refused with 429 until the window ends, the right password too: the
 * price is that an attacker can hold one account's logins back, never get in. Shared by every
 * instance (Redis, or PostgreSQL's rate_limits table).
 */
@Injectable()
export class LoginFailures {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(REDIS_CLIENT) private readonly redis: RedisClient | null,
    private readonly limits: RateLimitsRepository,
  ) {}

  /** Throws 429 RATE_LIMITED while the name has used up its failures. */
  async check(login: string): Promise<void> {
    const key = this.key(login);
    const { hits, ttlMs } = this.redis ? await this.redisState(key) : await this.limits.peek(key);
    if (hits >= this.config.loginFailuresPerAccount) {
      throw new ApiException(
        [{ code: 'RATE_LIMITED', message: 'too many failed attempts for this account: try again later' }],
        Math.max(1, Math.ceil(ttlMs / 1000)),
      );
    }
  }

  async failed(login: string): Promise<void> {
    const key = this.key(login);
    if (this.redis) {
      await this.redis.multi().incr(key).pexpire(key, WINDOW_MS, 'NX').exec();
    } else {
      // Counted only: the limit is applied by check(), never by the counter itself.
      await this.limits.increment(key, WINDOW_MS, 2_000_000_000, 0);
    }
  }

  private key(login: string): string {
    return `${this.config.redis.prefix}:rl:login-failures:${login.toLowerCase().slice(0, 256)}`;
  }

  private async redisState(key: string): Promise<{ hits: number; ttlMs: number }> {
    const [hits, ttl] = await Promise.all([this.redis!.get(key), this.redis!.pttl(key)]);
    return { hits: Number(hits ?? 0), ttlMs: Math.max(0, ttl) };
  }
}
