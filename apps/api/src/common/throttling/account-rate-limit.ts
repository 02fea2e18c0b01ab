import { Inject, Injectable } from '@nestjs/common';
import { getStorageToken, type ThrottlerStorage } from '@nestjs/throttler';
import { APP_CONFIG, type AppConfig } from '@dts/platform';
import { ApiException } from '../http/api.exception';

export const ACCOUNT_THROTTLER = 'account';
/** The window of every rate limit. */
export const RATE_WINDOW_MS = 60_000;

/** 429 RATE_LIMITED, to retry after the block (seconds). */
export function rateLimited(retryAfterSeconds: number): ApiException {
  return new ApiException([{ code: 'RATE_LIMITED', message: 'too many requests: slow down' }], retryAfterSeconds);
}

/** The per-account budget (docs/api.md §3): one window a minute, one key per account across every route. */
export function accountBudget(config: AppConfig) {
  const prefix = `${config.redis.prefix}:rl`;
  return {
    name: ACCOUNT_THROTTLER,
    ttl: RATE_WINDOW_MS,
    limit: config.rateLimit.perAccountPerMinute,
    key: (accountId: number | string) => `${prefix}:account:${accountId}`,
  };
}

/**
 * The per-account budget counted for a caller already known, as the `account` throttler of
 * @nestjs/throttler's guard would count it (same storage, key, window and block): ApiThrottlerGuard
 * counts every route without limits of its own through it.
 */
@Injectable()
export class AccountRateLimit {
  private readonly budget: ReturnType<typeof accountBudget>;

  constructor(
    @Inject(getStorageToken()) private readonly storage: ThrottlerStorage,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.budget = accountBudget(config);
  }

  /**
   * Counts a call of the account and sets the headers the guard sets (@nestjs/throttler's names):
   * `X-RateLimit-{Limit,Remaining,Reset}-account` within the budget; past it `Retry-After-account`,
   * and throws what the guard throws.
   */
  async count(accountId: number, res: { setHeader(name: string, value: number): unknown }): Promise<void> {
    const { ttl, limit, name } = this.budget;
    // The block lasts a window, the guard's default when a throttler names none.
    const state = await this.storage.increment(this.budget.key(accountId), ttl, limit, ttl, name);
    if (state.isBlocked) {
      res.setHeader(`Retry-After-${name}`, state.timeToBlockExpire);
      throw rateLimited(state.timeToBlockExpire);
    }
    res.setHeader(`X-RateLimit-Limit-${name}`, limit);
    res.setHeader(`X-RateLimit-Remaining-${name}`, Math.max(0, limit - state.totalHits));
    res.setHeader(`X-RateLimit-Reset-${name}`, state.timeToExpire);
  }
}
