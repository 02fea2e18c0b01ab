import { eventually } from '@dts/platform';
import { DataSource } from 'typeorm';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../embedded/embedded-postgres';
import { dataSourceOptions, runMigrations } from '../data-source';
import { RateLimitsRepository } from './rate-limits.repository';

describe('RateLimitsRepository', () => {
  let db: EmbeddedPostgres;
  let ds: DataSource;
  let repo: RateLimitsRepository;

  beforeAll(async () => {
    db = await startEmbeddedPostgres({ dataDir: null, maxConnections: 10 });
    await runMigrations({ url: db.url, poolSize: 1 });
    ds = await new DataSource(dataSourceOptions({ url: db.url, poolSize: 2 })).initialize();
    repo = new RateLimitsRepository(ds);
  });
  afterAll(async () => {
    await ds?.destroy();
    await db?.stop();
  });

  it('counts several hits at once, and blocks when they pass the limit', async () => {
    expect(await repo.increment('batch', 60_000, 10, 30_000, 4)).toMatchObject({ totalHits: 4, isBlocked: false });
    const next = await repo.increment('batch', 60_000, 10, 30_000, 7);
    expect(next).toMatchObject({ totalHits: 11, isBlocked: true });
    expect(next.expiresInMs).toBeGreaterThan(55_000);
    expect(next.expiresInMs).toBeLessThanOrEqual(60_000);
  });

  it('counts hits in a window and blocks past the limit', async () => {
    expect(await repo.increment('k', 60_000, 2, 30_000)).toMatchObject({ totalHits: 1, isBlocked: false });
    expect(await repo.increment('k', 60_000, 2, 30_000)).toMatchObject({ totalHits: 2, isBlocked: false });
    const third = await repo.increment('k', 60_000, 2, 30_000);
    expect(third).toMatchObject({ totalHits: 3, isBlocked: true });
    expect(third.timeToBlockExpire).toBeGreaterThan(25);
    expect(third.timeToBlockExpire).toBeLessThanOrEqual(30);
  });

  it('starts a new window when the old one ended', async () => {
    await repo.increment('w', 1, 1, 1);
    // The 1 ms window ends by the database's clock: wait until the store itself no longer counts it.
    await eventually(async () => expect(await repo.peek('w')).toEqual({ hits: 0, ttlMs: 0 }), {
      what: "the 1 ms window of 'w' to end",
      timeoutMs: 2_000,
      intervalMs: 5,
    });
    expect(await repo.increment('w', 60_000, 1, 1)).toMatchObject({ totalHits: 1, isBlocked: false });
  });
});
