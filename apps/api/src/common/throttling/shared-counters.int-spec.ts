import type { RateLimitsRepository } from '@dts/persistence';
import { describeOnEachRedis, eventually, loadConfig } from '@dts/platform';
import { randomBytes } from 'node:crypto';
import { ApiException } from '../http/api.exception';
import { BatchedThrottlerStorage } from './batched-throttler.storage';
import { LoginFailures } from './login-failures';
import { RedisSharedCounters, redisWindowKey } from './shared-counters';

/*
 * The Redis counters (rate-limiter-flexible's RateLimiterRedis) on the single Redis of
 * TEST_REDIS_URL and on a three-master Redis Cluster started here, alone and under the batching
 * layer, and the failed logins per name counted there. In the PostgreSQL + Redis pass of `npm test`; PostgreSQL's counters are
 * libs/persistence/src/rate-limits/rate-limits.repository.int-spec.ts.
 */

describeOnEachRedis('rate-limit counters on a single Redis and on a Redis Cluster', ({ redis }) => {
  describe.each(['single', 'cluster'] as const)('on a %s Redis', (kind) => {
    const prefix = `dts-rl-${kind}-${randomBytes(3).toString('hex')}`;

    it('counts several hits at once in a window, and blocks for the block when they pass the limit', async () => {
      const counters = new RedisSharedCounters(redis[kind]);
      const key = `${prefix}:rl:account:1`;
      const first = await counters.add(key, 4, 60_000, 10, 30_000, 'account');
      expect(first).toMatchObject({ totalHits: 4, isBlocked: false, timeToBlockExpire: 0, timeToExpire: 60 });
      expect(first.expiresInMs).toBeGreaterThan(55_000);
      expect(await counters.add(key, 6, 60_000, 10, 30_000, 'account')).toMatchObject({ totalHits: 10, isBlocked: false });
      const past = await counters.add(key, 1, 60_000, 10, 30_000, 'account');
      expect(past).toMatchObject({ totalHits: 11, isBlocked: true, timeToBlockExpire: 30 });
      // Still blocked after: the block, not the window, is what the answer names.
      const again = await counters.add(key, 1, 60_000, 10, 30_000, 'account');
      expect(again).toMatchObject({ totalHits: 12, isBlocked: true });
      expect(again.timeToBlockExpire).toBeGreaterThan(25);
      expect(again.timeToBlockExpire).toBeLessThanOrEqual(30);
      // One key per window, under the name of the service's script before the library.
      expect(await redis[kind].pttl(redisWindowKey(key, 'account'))).toBeGreaterThan(25_000);
    });

    it('starts a new window when the block has ended', async () => {
      const counters = new RedisSharedCounters(redis[kind]);
      const key = `${prefix}:rl:auth:short`;
      expect(await counters.add(key, 2, 60_000, 1, 1_000, 'auth')).toMatchObject({ totalHits: 2, isBlocked: true, timeToBlockExpire: 1 });
      // The block is the window key rewritten to last 1 s: Redis expiring it is the block's end.
      await eventually(async () => expect(await redis[kind].exists(redisWindowKey(key, 'auth'))).toBe(0), { what: 'the 1 s block to end', timeoutMs: 5_000 });
      expect(await counters.add(key, 1, 60_000, 1, 1_000, 'auth')).toMatchObject({ totalHits: 1, isBlocked: false, timeToExpire: 60 });
    });

    it('under the batching layer: exact on one instance, and a second instance sees the hits once flushed', async () => {
      const a = new BatchedThrottlerStorage(new RedisSharedCounters(redis[kind]), new Set(['account']));
      const b = new BatchedThrottlerStorage(new RedisSharedCounters(redis[kind]), new Set(['account']));
      try {
        const key = `${prefix}:rl:account:2`;
        const hit = (s: BatchedThrottlerStorage) => s.increment(key, 60_000, 10, 60_000, 'account');
        const answers = [];
        for (let i = 0; i < 12; i++) answers.push(await hit(a));
        expect(answers.map((s) => s.isBlocked)).toEqual([...Array(10).fill(false), true, true]);
        expect(answers[9]).toMatchObject({ totalHits: 10 });
        // The block is known to the other instance from the store.
        const other = await hit(b);
        expect(other.isBlocked).toBe(true);
        expect(other.timeToBlockExpire).toBeGreaterThan(55);

        // Hits counted locally (below half the limit) reach the store at the flush.
        const key2 = `${prefix}:rl:account:3`;
        for (let i = 0; i < 4; i++) await a.increment(key2, 60_000, 100, 60_000, 'account');
        expect(Number(await redis[kind].get(redisWindowKey(key2, 'account')))).toBe(1);
        await a.flush();
        expect(Number(await redis[kind].get(redisWindowKey(key2, 'account')))).toBe(4);
        expect(await b.increment(key2, 60_000, 100, 60_000, 'account')).toMatchObject({ totalHits: 5 });
      } finally {
        await a.onApplicationShutdown();
        await b.onApplicationShutdown();
      }
    });

    it('refuses a name past its failed logins, with the rest of the window to wait, and counts names apart', async () => {
      const config = loadConfig({
        NODE_ENV: 'test',
        LOG_LEVEL: 'silent',
        INGEST_SECRET: 'test-ingest-secret-0123456789',
        TOKEN_ENCRYPTION_KEY: '00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff',
        SESSION_SECRET: 'test-session-secret-0123456789abcdef0123456789',
        REDIS_PREFIX: prefix,
        LOGIN_FAILURES_PER_ACCOUNT: '3',
      });
      // On Redis the database's counters are never used.
      const failures = new LoginFailures(config, redis[kind], null as unknown as RateLimitsRepository);
      for (let i = 0; i < 3; i++) {
        await failures.check('Mallory');
        await failures.failed('MALLORY');
      }
      const refused = await failures.check('mallory').then(
        () => null,
        (e: unknown) => e,
      );
      expect(refused).toBeInstanceOf(ApiException);
      expect(refused).toMatchObject({ status: 429, entries: [{ code: 'RATE_LIMITED' }] });
      // Retry-After: the rest of the 15-minute window.
      expect((refused as ApiException).retryAfter).toBeGreaterThan(14 * 60);
      expect((refused as ApiException).retryAfter).toBeLessThanOrEqual(15 * 60);
      // The key as before rate-limiter-flexible, counts and window in milliseconds.
      expect(await redis[kind].get(`${prefix}:rl:login-failures:mallory`)).toBe('3');
      const ttl = await redis[kind].pttl(`${prefix}:rl:login-failures:mallory`);
      expect(ttl).toBeGreaterThan(14 * 60_000);
      expect(ttl).toBeLessThanOrEqual(15 * 60_000);
      await expect(failures.check('trudy')).resolves.toBeUndefined();
    });
  });
});
