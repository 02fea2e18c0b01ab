import { QUEUES } from '@dts/domain';
import { randomBytes } from 'node:crypto';
import { accountWithCredentials, bearer, login } from './support/accounts';
import { expectError, expectSuccess } from './support/envelope';
import { startTestService, TEST_SECRETS, type TestService } from './support/harness';

/* GET /admin/info (CONTRACT §8): real figures for administrators only. */

interface AdminInfo {
  version: string;
  uptime_s: number;
  accounts: number;
  devices: number;
  uplinks: number;
  uplinks_estimated: boolean;
  queues: Record<string, number>;
  database: { kind: string; server_version: string; size_bytes: number; pool: { total: number; idle: number; waiting: number } };
  cache: { backend: string; entries: number; bytes: number; stale: number };
}

const ADMIN = { id: 0, username: 'infoadmin', email: 'infoadmin@localhost', password: 'info admin password 1' };
const newEui = () => randomBytes(8).toString('hex').toUpperCase();

describe('GET /admin/info', () => {
  let svc: TestService;
  let adminCookie: string;
  let alice: Awaited<ReturnType<typeof accountWithCredentials>>;
  const info = async () => expectSuccess<AdminInfo>(await svc.http().get('/admin/info').set('Cookie', adminCookie));

  beforeAll(async () => {
    svc = await startTestService({ env: { ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password, AUTH_RATE_LIMIT_PER_MINUTE: '1000' } });
    adminCookie = await login(svc, ADMIN);
    alice = await accountWithCredentials(svc, 'alice');
  }, 60_000);
  afterAll(() => svc?.close());

  it('gives an administrator the version, uptime, totals, queues, database and cache', async () => {
    const data = await info();
    expect(data).toEqual({
      version: expect.stringMatching(/^\d+\.\d+\.\d+/),
      uptime_s: expect.any(Number),
      accounts: 2,
      devices: 0,
      uplinks: 0,
      uplinks_estimated: false,
      queues: Object.fromEntries(Object.values(QUEUES).map((q) => [q, expect.any(Number)])),
      database: {
        kind: svc.config.database.url ? 'postgresql' : 'embedded',
        server_version: expect.stringMatching(/^\d+(\.\d+)?/),
        size_bytes: expect.any(Number),
        pool: { total: expect.any(Number), idle: expect.any(Number), waiting: expect.any(Number) },
      },
      cache: { backend: svc.config.redis.url ? 'redis' : 'postgresql', entries: 0, bytes: 0, stale: 0 },
    });
    expect(data.uptime_s).toBeGreaterThanOrEqual(0);
    expect(data.database.size_bytes).toBeGreaterThan(0);
    // This request itself holds a connection of the pool.
    expect(data.database.pool.total).toBeGreaterThanOrEqual(1);
    expect(data.database.pool.total).toBeLessThanOrEqual(svc.config.database.poolSize);
  });

  it('moves with new accounts, devices and uplinks', async () => {
    const before = await info();
    await accountWithCredentials(svc, 'bob');
    const eui = newEui();
    expectSuccess(await svc.http().post(`/user/device/${eui}`).set(...bearer(alice.appToken)).send({}), 201);
    const items = [1, 2, 3].map((fcnt) => ({ devEUI: eui, port: 1, payload_hex: '01', fcnt, time_stamp_unix: 1_777_300_000 + fcnt }));
    expect(expectSuccess(await svc.http().post('/ingest/rest').set('X-Ingest-Secret', TEST_SECRETS.INGEST_SECRET).send(items), 202)).toMatchObject({ accepted: 3 });
    const after = await info();
    expect({ accounts: after.accounts - before.accounts, devices: after.devices - before.devices, uplinks: after.uplinks - before.uplinks }).toEqual({ accounts: 1, devices: 1, uplinks: 3 });
    expect(after.uplinks_estimated).toBe(false);
    expect(after.database.size_bytes).toBeGreaterThan(0);
  });

  it('refuses a normal account 403 ADMIN_ONLY, whatever its credentials', async () => {
    expectError(await svc.http().get('/admin/info').set(...bearer(alice.appToken)), 403, 'ADMIN_ONLY');
    expectError(await svc.http().get('/admin/info').set(...bearer(alice.masterToken)), 403, 'ADMIN_ONLY');
    expectError(await svc.http().get('/admin/info').set('Cookie', alice.cookie), 403, 'ADMIN_ONLY');
  });

  it('needs credentials: 401 AUTH_REQUIRED without, INVALID_TOKEN with a bad token, and the ingest secret is none', async () => {
    expectError(await svc.http().get('/admin/info'), 401, 'AUTH_REQUIRED');
    expectError(await svc.http().get('/admin/info').set(...bearer('0'.repeat(64))), 401, 'INVALID_TOKEN');
    expectError(await svc.http().get('/admin/info').set('X-Ingest-Secret', TEST_SECRETS.INGEST_SECRET), 401, 'AUTH_REQUIRED');
  });
});
