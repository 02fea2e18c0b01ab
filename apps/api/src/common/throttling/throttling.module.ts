import { Module } from '@nestjs/common';
import { ThrottlerModule } from '@nestjs/throttler';
import { RateLimitsRepository } from '@dts/persistence';
import { APP_CONFIG, type AppConfig, REDIS_CLIENT, type RedisClient } from '@dts/platform';
import type { ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import { ACCOUNT_THROTTLER, accountBudget, AccountRateLimit, RATE_WINDOW_MS } from './account-rate-limit';
import { ApiThrottlerGuard, AUTH_THROTTLER, authTracker } from './api-throttler.guard';
import { LoginFailures } from './login-failures';
import { BatchedThrottlerStorage } from './batched-throttler.storage';
import { PgSharedCounters, RedisSharedCounters } from './shared-counters';

/**
 * Rate limits in a store every instance shares (Redis when configured, else PostgreSQL), so that
 * a limit holds however many instances the load balancer spreads the calls over.
 */
@Module({
  imports: [
    ThrottlerModule.forRootAsync({
      inject: [APP_CONFIG, REDIS_CLIENT, RateLimitsRepository],
      useFactory: (config: AppConfig, redis: RedisClient | null, limits: RateLimitsRepository) => {
        const prefix = `${config.redis.prefix}:rl`;
        const account = accountBudget(config);
        return {
          // The per-account budget is counted locally between exchanges with the store (BatchedThrottlerStorage).
          storage: new BatchedThrottlerStorage(redis ? new RedisSharedCounters(redis) : new PgSharedCounters(limits), new Set([ACCOUNT_THROTTLER])),
          throttlers: [
            {
              name: AUTH_THROTTLER,
              ttl: RATE_WINDOW_MS,
              limit: config.rateLimit.authPerMinute,
              getTracker: (req: Record<string, unknown>) => authTracker(req as unknown as Request),
              generateKey: (ctx: ExecutionContext, tracker: string) => `${prefix}:auth:${ctx.getClass().name}.${ctx.getHandler().name}:${tracker}`,
            },
            {
              name: account.name,
              ttl: account.ttl,
              limit: account.limit,
              getTracker: (req: Record<string, unknown>) => String((req as unknown as Request).auth?.accountId ?? ''),
              generateKey: (_ctx: ExecutionContext, tracker: string) => account.key(tracker),
            },
          ],
        };
      },
    }),
  ],
  providers: [ApiThrottlerGuard, AccountRateLimit, LoginFailures],
  exports: [ApiThrottlerGuard, AccountRateLimit, LoginFailures],
})
export class ThrottlingModule {}
