import { getQueueToken } from '@nestjs/bullmq';
import { getDataSourceToken } from '@nestjs/typeorm';
import { QUEUES } from '@dts/domain';
import type { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { randomBytes } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { accountWithCredentials, tokenClient } from './support/accounts';
import { expectError, expectSuccess } from './support/envelope';
import { eventually } from '@dts/platform';
import { startTestService, TEST_SECRETS, type TestService } from './support/harness';
import { realDatabaseUrl, realRedisUrl } from './support/test-database';

/*
 * The per-device data cache (docs/api.md §5, §11): GET /cache/status, GET /cache/status/{eui},
 * POST /cache/invalidate/{eui}, POST /cache/invalidate/all, for administrators; and how it serves
 * GET /user/device/data/{eui}.
 */

type Caller = Awaited<ReturnType<typeof accountWithCredentials>>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are read member by member
type Json = Record<string, any>;
interface Entry {
  devEUI: string;
  version: number;
  rows: number;
  built_unix: number | null;
  stale: boolean;
}

const newEui = () => randomBytes(8).toString('hex').toUpperCase();
const T0 = 1_777_100_000;
const ADMIN = { username: 'cacheadmin', password: 'cache admin password 1' };

/** Cayenne LPP: temperature on channel 1, humidity on channel 2. */
function lpp(t: number, h: number): string {
  const b = Buffer.from([1, 0x67, 0, 0, 2, 0x68, Math.round(h * 2)]);
  b.writeInt16BE(Math.round(t * 10), 2);
  return b.toString('hex');
}

describe('data cache', () => {
  let svc: TestService;
  let alice: Caller;
  let adminCookie: string;
  let db: DataSource;
  let fcnt = 0;

  const admin = {
    get: (path: string) => svc.http().get(path).set('Cookie', adminCookie),
    post: (path: string) => svc.http().post(path).set('Cookie', adminCookie).send({}),
  };
  const as = (who: Caller) => tokenClient(svc, who.appToken);
  const register = async () => expectSuccess<{ uid: number; devEUI: string }>(await as(alice).post(`/user/device/${newEui()}`, { decoder_ref: 2 }), 201);
  /** Stores `n` uplinks for the device, a minute apart after the ones before; returns their temperatures. */
  const uplinks = async (eui: string, n: number) => {
    const items = Array.from({ length: n }, () => {
      fcnt++;
      return { devEUI: eui, port: 1, payload_hex: lpp((fcnt % 400) / 10, 50), fcnt, time_stamp_unix: T0 + fcnt * 60 };
    });
    const res = await svc.http().post('/ingest/rest').set('X-Ingest-Secret', TEST_SECRETS.INGEST_SECRET).send(items);
    expect(expectSuccess<{ accepted: number }>(res, 202).accepted).toBe(n);
  };
  const entry = async (eui: string) => expectSuccess<Entry>(await admin.get(`/cache/status/${eui}`));
  const dataText = async (eui: string, query = '') => {
    const res = await as(alice).get(`/user/device/data/${eui}${query}`);
    expectSuccess(res);
    return res.text;
  };
  /** Polls the entry until it is fresh with `rows` rows. */
  const fresh = async (eui: string, rows: number, timeoutMs = 15_000): Promise<Entry> => {
    let last = await entry(eui);
    await eventually(
      async () => {
        last = await entry(eui);
        return last.stale === false && last.rows === rows;
      },
      { what: `a fresh entry of ${rows} rows`, timeoutMs, intervalMs: 200 },
    ).catch(() => undefined); // the expectation says what it is
    expect(last).toMatchObject({ stale: false, rows });
    return last;
  };

  beforeAll(async () => {
    svc = await startTestService({
      env: { ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password, AUTH_RATE_LIMIT_PER_MINUTE: '1000', RATE_LIMIT_PER_MINUTE: '100000' },
    });
    db = svc.app.get<DataSource>(getDataSourceToken());
    const login = await svc.http().post('/auth/login').send(ADMIN).expect(200);
    const cookie = (login.headers['set-cookie'] as unknown as string[]).find((c) => c.startsWith(`${svc.config.session.cookieName}=`));
    adminCookie = cookie!.split(';')[0]!;
    alice = await accountWithCredentials(svc, 'alice');
  }, 60_000);
  afterAll(() => svc?.close());

  describe('access', () => {
    const routes: [string, string][] = [
      ['GET', '/cache/status'],
      ['GET', '/cache/status/{eui}'],
      ['POST', '/cache/invalidate/{eui}'],
      ['POST', '/cache/invalidate/all'],
    ];

    it.each(routes)('%s %s: 401 AUTH_REQUIRED without credentials, 403 ADMIN_ONLY for a normal user, nothing invalidated', async (method, template) => {
      const device = await register();
      const path = template.replace('{eui}', device.devEUI);
      const before = await entry(device.devEUI);
      const anon = method === 'GET' ? svc.http().get(path) : svc.http().post(path).send({});
      expectError(await anon, 401, 'AUTH_REQUIRED');
      const user = method === 'GET' ? as(alice).get(path) : as(alice).post(path);
      expectError(await user, 403, 'ADMIN_ONLY');
      // The user's session too, not only the token.
      const cookieReq = method === 'GET' ? svc.http().get(path).set('Cookie', alice.cookie) : svc.http().post(path).set('Cookie', alice.cookie).send({});
      expectError(await cookieReq, 403, 'ADMIN_ONLY');
      expect((await entry(device.devEUI)).version).toBe(before.version);
    });

    it('an unknown EUI is 404, a bad EUI 400', async () => {
      const unknown = newEui();
      expectError(await admin.get(`/cache/status/${unknown}`), 404, 'NOT_FOUND');
      expectError(await admin.post(`/cache/invalidate/${unknown}`), 404, 'NOT_FOUND');
      expectError(await admin.get('/cache/status/not-an-eui'), 400, 'VALIDATION_FAILED', 'eui');
      expectError(await admin.post('/cache/invalidate/70B3D57ED000'), 400, 'VALIDATION_FAILED', 'eui');
    });
  });

  describe('shapes', () => {
    it('GET /cache/status is {devices, entries, bytes, stale}', async () => {
      const totals = expectSuccess<Json>(await admin.get('/cache/status'));
      expect(Object.keys(totals).sort()).toEqual(['bytes', 'devices', 'entries', 'stale']);
      for (const v of Object.values(totals)) {
        expect(Number.isInteger(v)).toBe(true);
        expect(v).toBeGreaterThanOrEqual(0);
      }
    });

    it('GET /cache/status/{eui} is {devEUI, version, rows, built_unix, stale}, in any EUI form', async () => {
      const device = await register();
      const e = expectSuccess<Json>(await admin.get(`/cache/status/${device.devEUI.toLowerCase().match(/../g)!.join(':')}`));
      expect(Object.keys(e).sort()).toEqual(['built_unix', 'devEUI', 'rows', 'stale', 'version']);
      expect(e).toMatchObject({ devEUI: device.devEUI, rows: 0, built_unix: null, stale: expect.any(Boolean) });
      expect(Number.isInteger(e.version)).toBe(true);
    });
  });

  describe('versions', () => {
    it('invalidation answers 202 and moves the version on; so do new uplinks, and cache_file_version follows', async () => {
      const device = await register();
      const v0 = (await entry(device.devEUI)).version;

      const inv = await admin.post(`/cache/invalidate/${device.devEUI}`);
      const invalidated = expectSuccess<Json>(inv, 202);
      expect(invalidated).toMatchObject({ devEUI: device.devEUI, version: expect.any(Number) });
      expect(invalidated.version).toBeGreaterThan(v0);
      expect((await entry(device.devEUI)).version).toBe(invalidated.version);

      await uplinks(device.devEUI, 2);
      const v2 = (await entry(device.devEUI)).version;
      expect(v2).toBeGreaterThan(invalidated.version);
      const filtered = JSON.parse(await dataText(device.devEUI, '?filter=temperature'));
      expect(filtered.meta).toEqual({ data_types: [1], cache_file_version: v2 });

      const all = await admin.post('/cache/invalidate/all');
      const allData = expectSuccess<Json>(all, 202);
      expect(allData.devices).toBeGreaterThanOrEqual(1);
      const v3 = (await entry(device.devEUI)).version;
      expect(v3).toBeGreaterThan(v2);
      expect(JSON.parse(await dataText(device.devEUI, '?filter=temperature')).meta.cache_file_version).toBe(v3);

      await uplinks(device.devEUI, 1);
      const v4 = (await entry(device.devEUI)).version;
      expect(v4).toBeGreaterThan(v3);
      expect(JSON.parse(await dataText(device.devEUI, '?filter=temperature,humidity')).meta.cache_file_version).toBe(v4);
    });

    it('a redelivered uplink, stored nowhere, leaves the version alone', async () => {
      const device = await register();
      const item = { devEUI: device.devEUI, port: 1, payload_hex: lpp(20, 50), fcnt: 1, time_stamp_unix: T0 };
      await svc.http().post('/ingest/rest').set('X-Ingest-Secret', TEST_SECRETS.INGEST_SECRET).send(item).expect(202);
      const v = (await entry(device.devEUI)).version;
      const again = await svc.http().post('/ingest/rest').set('X-Ingest-Secret', TEST_SECRETS.INGEST_SECRET).send(item);
      expect(expectSuccess<Json>(again, 202)).toMatchObject({ accepted: 0, duplicates: 1 });
      expect((await entry(device.devEUI)).version).toBe(v);
    });
  });

  describe('building and serving', () => {
    it('a data read has the worker build the entry; a fresh entry serves exactly the body a database read gives', async () => {
      const device = await register();
      await uplinks(device.devEUI, 7);
      const fromDatabase = await dataText(device.devEUI);
      expect(JSON.parse(fromDatabase).data).toHaveLength(7);

      const built = await fresh(device.devEUI, 7);
      expect(Number.isInteger(built.built_unix)).toBe(true);
      expect(Math.abs(built.built_unix! - Date.now() / 1000)).toBeLessThan(120);
      if (!realRedisUrl) {
        const [{ n }] = await db.query('SELECT count(*)::int AS n FROM data_cache_chunks WHERE device_id = $1 AND version = $2', [device.uid, built.version]);
        expect(n).toBeGreaterThan(0);
      }

      const fromCache = await dataText(device.devEUI);
      expect(fromCache).toBe(fromDatabase);
      // Any narrowing reads the database: the same rows again.
      expect(await dataText(device.devEUI, '?limit=100000')).toBe(fromDatabase);
      expect(await dataText(device.devEUI, `?from=0`)).toBe(fromDatabase);
      // Reading does not make it stale.
      expect(await entry(device.devEUI)).toMatchObject({ version: built.version, stale: false, rows: 7 });

      const totals = expectSuccess<{ devices: number; entries: number; bytes: number; stale: number }>(await admin.get('/cache/status'));
      expect(totals.entries).toBeGreaterThanOrEqual(1);
      expect(totals.bytes).toBeGreaterThan(0);
      expect(totals.devices).toBeGreaterThanOrEqual(totals.entries);
    });

    it('after new uplinks the next read shows them at once, never the stale entry; then the entry is rebuilt', async () => {
      const device = await register();
      await uplinks(device.devEUI, 3);
      await dataText(device.devEUI);
      const built = await fresh(device.devEUI, 3);

      await uplinks(device.devEUI, 2);
      const stale = await entry(device.devEUI);
      expect(stale.version).toBeGreaterThan(built.version);
      expect(stale.stale).toBe(true);
      expect(stale.rows).toBe(3);
      const totals = expectSuccess<{ stale: number }>(await admin.get('/cache/status'));
      expect(totals.stale).toBeGreaterThanOrEqual(1);

      const body = JSON.parse(await dataText(device.devEUI));
      expect(body.data).toHaveLength(5);
      const table = expectSuccess<Json[]>(await as(alice).get(`/user/device/table/${device.devEUI}`));
      expect(body.data.map((r: Json) => [r.uid, r.ts_unix, r.temperature])).toEqual(table.map((r) => [r.uplink.uid, r.uplink.time_stamp_unix, r.temperature]));

      const rebuilt = await fresh(device.devEUI, 5);
      expect(rebuilt.version).toBe(stale.version);
      expect(await dataText(device.devEUI)).toBe(await dataText(device.devEUI, '?limit=100000'));
    });

    it('invalidate/{eui} queues a rebuild by itself; the entry is fresh again without any read', async () => {
      const device = await register();
      await uplinks(device.devEUI, 4);
      await dataText(device.devEUI);
      const first = await fresh(device.devEUI, 4);
      const { version } = expectSuccess<{ version: number }>(await admin.post(`/cache/invalidate/${device.devEUI}`), 202);
      expect(version).toBeGreaterThan(first.version);
      const again = await fresh(device.devEUI, 4);
      expect(again.version).toBe(version);
      expect(await dataText(device.devEUI)).toBe(await dataText(device.devEUI, '?limit=100000'));
    });

    it('invalidate/all moves every device on and rebuilds them', async () => {
      const a = await register();
      const b = await register();
      await uplinks(a.devEUI, 2);
      await uplinks(b.devEUI, 3);
      const before: [number, number] = [(await entry(a.devEUI)).version, (await entry(b.devEUI)).version];
      expectSuccess(await admin.post('/cache/invalidate/all'), 202);
      const ea = await fresh(a.devEUI, 2);
      const eb = await fresh(b.devEUI, 3);
      expect(ea.version).toBeGreaterThan(before[0]);
      expect(eb.version).toBeGreaterThan(before[1]);
    });

    // Needs a second database session that holds a lock while the service runs: the embedded
    // database is one session, so this runs on a real PostgreSQL only.
    (realDatabaseUrl ? it : it.skip)(
      'an invalidation that arrives while the entry is being rebuilt is rebuilt too',
      async () => {
        const device = await register();
        await uplinks(device.devEUI, 3);
        await dataText(device.devEUI);
        const first = await fresh(device.devEUI, 3);
        const queue = svc.app.get<Queue>(getQueueToken(QUEUES.cacheRebuild));
        const runner = db.createQueryRunner();
        await runner.connect();
        let released = false;
        try {
          await runner.startTransaction();
          // The rebuild reads the device's uplinks: hold it there.
          await runner.query('LOCK TABLE uplinks IN ACCESS EXCLUSIVE MODE');
          const v1 = expectSuccess<{ version: number }>(await admin.post(`/cache/invalidate/${device.devEUI}`), 202).version;
          expect(v1).toBeGreaterThan(first.version);
          await eventually(async () => (await queue.getActive()).some((j) => j.data?.deviceUid === device.uid), {
            what: 'the build to be running',
            intervalMs: 100,
          });
          // Another invalidation now: the running build is for v1 and will be discarded.
          const v2 = expectSuccess<{ version: number }>(await admin.post(`/cache/invalidate/${device.devEUI}`), 202).version;
          expect(v2).toBeGreaterThan(v1);
          await runner.commitTransaction();
          released = true;
          // A three-row build takes well under a second.
          const rebuilt = await fresh(device.devEUI, 3, 8_000);
          expect(rebuilt.version).toBe(v2);
        } finally {
          if (!released) await runner.rollbackTransaction().catch(() => undefined);
          await runner.release();
        }
      },
      40_000,
    );

    it('a history of several cache chunks is served whole and in order', async () => {
      const device = await register();
      const N = 12_000;
      await db.query(
        `INSERT INTO uplinks (device_id, received_at, network_ref, port, payload, decoded, valid, temperature, humidity, geoloc_lat, geoloc_lon)
         SELECT $1, to_timestamp($2::bigint + g), 4, 1, '\\x01'::bytea, '{}'::jsonb, true, (g % 300) / 10.0, NULL,
                CASE WHEN g % 1000 = 0 THEN 10.5 END, CASE WHEN g % 1000 = 0 THEN 20.25 END
         FROM generate_series(0, $3::int - 1) g`,
        [device.uid, T0, N],
      );
      // Rows written behind ingestion's back: an administrator invalidates.
      const { version } = expectSuccess<{ version: number }>(await admin.post(`/cache/invalidate/${device.devEUI}`), 202);
      const built = await fresh(device.devEUI, N, 30_000);
      expect(built.version).toBe(version);
      const fromCache = await dataText(device.devEUI);
      const fromDatabase = await dataText(device.devEUI, '?limit=100000');
      expect(fromCache.length).toBe(fromDatabase.length);
      expect(fromCache === fromDatabase).toBe(true);
      const rows = JSON.parse(fromCache).data as Json[];
      expect(rows).toHaveLength(N);
      expect(rows.every((r, k) => r.ts_unix === T0 + k && r.temperature === (k % 300) / 10)).toBe(true);
      expect(rows.filter((r) => 'geoloc_LAT' in r).map((r) => r.ts_unix)).toEqual(Array.from({ length: 12 }, (_, i) => T0 + i * 1000));
    }, 60_000);

    it('a chunk gone from the store mid-way (evicted, or the store failing) still gives the whole body: the rest comes from the database', async () => {
      const device = await register();
      const N = 12_000;
      await db.query(
        `INSERT INTO uplinks (device_id, received_at, network_ref, port, payload, decoded, valid, temperature)
         SELECT $1, to_timestamp($2::bigint + g), 4, 1, '\\x01'::bytea, '{}'::jsonb, true, (g % 300) / 10.0
         FROM generate_series(0, $3::int - 1) g`,
        [device.uid, T0, N],
      );
      expectSuccess(await admin.post(`/cache/invalidate/${device.devEUI}`), 202);
      const { version } = await fresh(device.devEUI, N, 30_000);
      const whole = await dataText(device.devEUI, '?limit=100000');
      // The second of three chunks goes, as an eviction under memory pressure takes one key.
      const redis = realRedisUrl ? new Redis(realRedisUrl, { maxRetriesPerRequest: 1 }) : null;
      const chunkKey = `${svc.config.redis.prefix}:cache:${device.uid}:${version}:1`;
      const chunkStored = async () =>
        redis
          ? (await redis.exists(chunkKey)) === 1
          : (await db.query('SELECT 1 FROM data_cache_chunks WHERE device_id = $1 AND version = $2 AND chunk = 1', [device.uid, version])).length === 1;
      try {
        if (redis) await redis.del(chunkKey);
        else await db.query('DELETE FROM data_cache_chunks WHERE device_id = $1 AND version = $2 AND chunk = 1', [device.uid, version]);
        expect(await chunkStored()).toBe(false);
        const served = await dataText(device.devEUI);
        expect(served.length).toBe(whole.length);
        expect(served === whole).toBe(true);
        // The damaged entry is built again.
        await eventually(chunkStored, { what: 'the lost chunk written again by a rebuild', timeoutMs: 30_000 });
        if (redis) {
          // A store that fails mid-way (the real Redis answering WRONGTYPE for the second chunk, as
          // a connection lost there would fail it) is answered the same way.
          await redis.del(chunkKey);
          await redis.hset(chunkKey, 'not', 'a chunk');
          expect((await dataText(device.devEUI)) === whole).toBe(true);
        }
      } finally {
        redis?.disconnect();
      }
    }, 60_000);
  });
});
