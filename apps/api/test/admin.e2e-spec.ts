import { QUEUES } from '@dts/domain';
import { randomBytes } from 'node:crypto';
import { accountWithCredentials, bearer, login } from './support/accounts';
import { expectError, expectSuccess } from './support/envelope';
import { startTestService, TEST_SECRETS, type TestService } from './support/harness';

/*
 * GET /admin/info (docs/api.md §8): real figures for administrators only; the accounts an
 * administrator manages (GET /admin/accounts, PATCH /admin/accounts/{id}) and every device's cache
 * entry (GET /cache/entries).
 */

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

interface AdminAccount {
  id: number;
  username: string;
  email: string;
  fullname: string | null;
  groupid: number;
  active: number;
  created: string;
  last_login: string | null;
  expiration: string;
  max_devices: number;
  devices: number;
  uplink_retention_days: number | null;
  uplink_retention_effective_days: number | null;
}

describe('GET /admin/info, /admin/accounts, /cache/entries', () => {
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
    expectSuccess(
      await svc
        .http()
        .post(`/user/device/${eui}`)
        .set(...bearer(alice.appToken))
        .send({}),
      201,
    );
    const items = [1, 2, 3].map((fcnt) => ({ devEUI: eui, port: 1, payload_hex: '01', fcnt, time_stamp_unix: 1_777_300_000 + fcnt }));
    expect(expectSuccess(await svc.http().post('/ingest/rest').set('X-Ingest-Secret', TEST_SECRETS.INGEST_SECRET).send(items), 202)).toMatchObject({
      accepted: 3,
    });
    const after = await info();
    expect({ accounts: after.accounts - before.accounts, devices: after.devices - before.devices, uplinks: after.uplinks - before.uplinks }).toEqual({
      accounts: 1,
      devices: 1,
      uplinks: 3,
    });
    expect(after.uplinks_estimated).toBe(false);
    expect(after.database.size_bytes).toBeGreaterThan(0);
  });

  it('refuses a normal account 403 ADMIN_ONLY, whatever its credentials', async () => {
    expectError(
      await svc
        .http()
        .get('/admin/info')
        .set(...bearer(alice.appToken)),
      403,
      'ADMIN_ONLY',
    );
    expectError(
      await svc
        .http()
        .get('/admin/info')
        .set(...bearer(alice.masterToken)),
      403,
      'ADMIN_ONLY',
    );
    expectError(await svc.http().get('/admin/info').set('Cookie', alice.cookie), 403, 'ADMIN_ONLY');
  });

  it('needs credentials: 401 AUTH_REQUIRED without, INVALID_TOKEN with a bad token, and the ingest secret is none', async () => {
    expectError(await svc.http().get('/admin/info'), 401, 'AUTH_REQUIRED');
    expectError(
      await svc
        .http()
        .get('/admin/info')
        .set(...bearer('0'.repeat(64))),
      401,
      'INVALID_TOKEN',
    );
    expectError(await svc.http().get('/admin/info').set('X-Ingest-Secret', TEST_SECRETS.INGEST_SECRET), 401, 'AUTH_REQUIRED');
  });

  describe('accounts', () => {
    const accounts = async (query = '') => {
      const res = await svc.http().get(`/admin/accounts${query}`).set('Cookie', adminCookie);
      return { data: expectSuccess<AdminAccount[]>(res), meta: res.body.meta as { total: number; next_cursor: string | null } };
    };

    it('lists every account by username with its devices, expiration and limit, searched and paged', async () => {
      const carol = await accountWithCredentials(svc, 'carol');
      for (let i = 0; i < 2; i++)
        expectSuccess(
          await svc
            .http()
            .post(`/user/device/${newEui()}`)
            .set(...bearer(carol.appToken))
            .send({}),
          201,
        );
      const all = await accounts();
      const usernames = all.data.map((a) => a.username);
      expect(usernames).toEqual([...usernames].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())));
      expect(all.meta).toEqual({ total: all.data.length, next_cursor: null });
      expect(all.data.find((a) => a.username === carol.account.username)).toEqual({
        id: carol.account.id,
        username: carol.account.username,
        email: carol.account.email,
        fullname: null,
        groupid: 2,
        active: 1,
        created: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
        last_login: expect.any(String),
        expiration: expect.stringMatching(/^\d{4}-\d\d-\d\d$/),
        max_devices: svc.config.accounts.maxDevices,
        devices: 2,
        uplink_retention_days: null,
        uplink_retention_effective_days: null,
      });
      expect(all.data.find((a) => a.username === ADMIN.username)).toMatchObject({ groupid: 1 });
      // Searched (username or e-mail, any case), and paged two at a time without repeats.
      expect((await accounts(`?q=${carol.account.username.toUpperCase()}`)).data.map((a) => a.id)).toEqual([carol.account.id]);
      expect((await accounts('?q=@LOCALHOST')).data.map((a) => a.username)).toEqual([ADMIN.username]);
      const pages: string[] = [];
      let cursor: string | null = null;
      do {
        const page: { data: AdminAccount[]; meta: { total: number; next_cursor: string | null } } = await accounts(
          `?limit=2${cursor ? `&cursor=${cursor}` : ''}`,
        );
        expect(page.data.length).toBeLessThanOrEqual(2);
        pages.push(...page.data.map((a) => a.username));
        cursor = page.meta.next_cursor;
      } while (cursor);
      expect(pages).toEqual(usernames);
    });

    it('sets an account’s expiration and device limit, which registration then holds to', async () => {
      const dan = await accountWithCredentials(svc, 'dan');
      const register = () =>
        svc
          .http()
          .post(`/user/device/${newEui()}`)
          .set(...bearer(dan.appToken))
          .send({});
      const res = await svc.http().patch(`/admin/accounts/${dan.account.id}`).set('Cookie', adminCookie).send({ max_devices: 1 });
      expect(expectSuccess<AdminAccount>(res)).toMatchObject({ id: dan.account.id, max_devices: 1, devices: 0 });
      expectSuccess(await register(), 201);
      expectError(await register(), 403, 'DEVICE_LIMIT_REACHED');
      const expired = expectSuccess<AdminAccount>(
        await svc.http().patch(`/admin/accounts/${dan.account.id}`).set('Cookie', adminCookie).send({ expiration: '2020-01-31', max_devices: 5 }),
      );
      expect(expired).toMatchObject({ expiration: '2020-01-31', max_devices: 5, devices: 1 });
      expectError(await register(), 403, 'ACCOUNT_EXPIRED');
      expect(
        expectSuccess<{ expiration: string; max_devices: number }>(
          await svc
            .http()
            .get('/user')
            .set(...bearer(dan.appToken)),
        ),
      ).toMatchObject({
        expiration: '2020-01-31',
        max_devices: 5,
      });
    });

    it.each<[string, unknown, string]>([
      ['an empty body', {}, 'max_devices'],
      ['a negative limit', { max_devices: -1 }, 'max_devices'],
      ['a limit that is text', { max_devices: '5' }, 'max_devices'],
      ['a date that does not exist', { expiration: '2027-02-30' }, 'expiration'],
      ['a date in another format', { expiration: '31-12-2027' }, 'expiration'],
      ['an unknown member', { max_devices: 3, groupid: 1 }, 'groupid'],
      ['a retention of no days', { uplink_retention_days: 0 }, 'uplink_retention_days'],
      ['the retention in force, which is not set but follows', { uplink_retention_effective_days: 30 }, 'uplink_retention_effective_days'],
    ])('refuses %s with 400 naming it, changing nothing', async (_what, body, field) => {
      const before = (await accounts(`?q=${alice.account.username}`)).data;
      expectError(
        await svc
          .http()
          .patch(`/admin/accounts/${alice.account.id}`)
          .set('Cookie', adminCookie)
          .send(body as object),
        400,
        'VALIDATION_FAILED',
        field,
      );
      expect((await accounts(`?q=${alice.account.username}`)).data).toEqual(before);
    });

    it('is 404 for an account that does not exist and 400 for bad list members', async () => {
      expectError(await svc.http().patch('/admin/accounts/999999').set('Cookie', adminCookie).send({ max_devices: 3 }), 404, 'NOT_FOUND');
      expectError(await svc.http().patch('/admin/accounts/x').set('Cookie', adminCookie).send({ max_devices: 3 }), 400, 'VALIDATION_FAILED', 'id');
      expectError(await svc.http().get('/admin/accounts?limit=501').set('Cookie', adminCookie), 400, 'VALIDATION_FAILED', 'limit');
      expectError(await svc.http().get('/admin/accounts?cursor=WzFd').set('Cookie', adminCookie), 400, 'VALIDATION_FAILED', 'cursor');
    });

    it('refuses a normal account (403 ADMIN_ONLY, even on its own account) and nobody (401), changing nothing', async () => {
      const before = (await accounts(`?q=${alice.account.username}`)).data;
      expectError(await svc.http().get('/admin/accounts').set('Cookie', alice.cookie), 403, 'ADMIN_ONLY');
      expectError(
        await svc
          .http()
          .patch(`/admin/accounts/${alice.account.id}`)
          .set(...bearer(alice.masterToken))
          .send({ max_devices: 1_000 }),
        403,
        'ADMIN_ONLY',
      );
      expectError(await svc.http().get('/admin/accounts'), 401, 'AUTH_REQUIRED');
      expectError(await svc.http().patch(`/admin/accounts/${alice.account.id}`).send({ max_devices: 1_000 }), 401, 'AUTH_REQUIRED');
      expect((await accounts(`?q=${alice.account.username}`)).data).toEqual(before);
    });
  });

  describe('GET /cache/entries', () => {
    it('lists every live device’s entry by EUI with its owner, filtered by staleness and paged', async () => {
      const erin = await accountWithCredentials(svc, 'erin');
      const euis = [newEui(), newEui(), newEui()].sort();
      for (const eui of euis)
        expectSuccess(
          await svc
            .http()
            .post(`/user/device/${eui}`)
            .set(...bearer(erin.appToken))
            .send({ label: `cam ${eui.slice(-4)}` }),
          201,
        );
      const entries = async (query: string) => {
        const res = await svc.http().get(`/cache/entries${query}`).set('Cookie', adminCookie);
        return {
          data: expectSuccess<
            { devEUI: string; label: string; owner: string; version: number; stale: boolean; bytes: number; rows: number; built_unix: number | null }[]
          >(res),
          meta: res.body.meta,
        };
      };
      const all = await entries('?limit=500');
      expect(all.data.map((e) => e.devEUI)).toEqual([...all.data.map((e) => e.devEUI)].sort());
      expect(all.data.find((e) => e.devEUI === euis[0])).toEqual({
        devEUI: euis[0],
        label: `cam ${euis[0]!.slice(-4)}`,
        owner: erin.account.username,
        version: 0,
        rows: 0,
        bytes: 0,
        built_unix: null,
        stale: true,
      });
      // What GET /cache/status/{eui} says of each.
      for (const e of all.data.slice(0, 3)) {
        const one = expectSuccess<{ version: number; stale: boolean }>(await svc.http().get(`/cache/status/${e.devEUI}`).set('Cookie', adminCookie));
        expect({ version: e.version, stale: e.stale }).toEqual({ version: one.version, stale: one.stale });
      }
      expect((await entries('?stale=false')).data.every((e) => !e.stale)).toBe(true);
      expect((await entries('?stale=true&limit=500')).data.map((e) => e.devEUI)).toEqual(expect.arrayContaining(euis));
      // The counts are of what the listing shows, every page of it, by the rule that marks each row.
      const count = (rows: { stale: boolean; built_unix: number | null }[]) => ({
        total: rows.length,
        fresh: rows.filter((e) => !e.stale).length,
        stale: rows.filter((e) => e.stale && e.built_unix !== null).length,
        never_built: rows.filter((e) => e.built_unix === null).length,
      });
      expect(all.data.length).toBeLessThan(500);
      expect(all.meta).toEqual({ next_cursor: null, ...count(all.data) });
      expect(all.meta.never_built).toBeGreaterThanOrEqual(3);
      const staleOnly = await entries('?stale=true&limit=500');
      expect(staleOnly.meta).toEqual({ next_cursor: null, ...count(staleOnly.data) });
      expect(staleOnly.meta.fresh).toBe(0);
      const first = await entries('?limit=1');
      expect(first.meta).toEqual({ ...all.meta, next_cursor: first.data[0]!.devEUI });
      const second = await entries(`?limit=1&cursor=${first.meta.next_cursor}`);
      expect(second.data[0]!.devEUI > first.data[0]!.devEUI).toBe(true);
    });

    it('is 400 for bad members, 403 ADMIN_ONLY for a normal account and 401 without credentials', async () => {
      expectError(await svc.http().get('/cache/entries?stale=maybe').set('Cookie', adminCookie), 400, 'VALIDATION_FAILED', 'stale');
      expectError(await svc.http().get('/cache/entries?cursor=zz').set('Cookie', adminCookie), 400, 'VALIDATION_FAILED', 'cursor');
      expectError(await svc.http().get('/cache/entries').set('Cookie', alice.cookie), 403, 'ADMIN_ONLY');
      expectError(await svc.http().get('/cache/entries'), 401, 'AUTH_REQUIRED');
    });
  });
});
