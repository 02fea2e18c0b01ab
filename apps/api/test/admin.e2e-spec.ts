import { QUEUES } from '@dts/domain';
import { randomBytes } from 'node:crypto';
import { accountWithCredentials, bearer, login, registerAccount } from './support/accounts';
import { expectError, expectSuccess } from './support/envelope';
import { startTestService, TEST_SECRETS, type TestService } from './support/harness';
import { startSmtpServer } from './support/smtp-server';

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
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  const info = async () => expectSuccess<AdminInfo>(await svc.http().get('/admin/info').set('Cookie', adminCookie));

  beforeAll(async () => {
    smtp = await startSmtpServer();
    svc = await startTestService({
      env: { ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password, AUTH_RATE_LIMIT_PER_MINUTE: '1000', SMTP_URL: `smtp://127.0.0.1:${smtp.port}` },
    });
    adminCookie = await login(svc, ADMIN);
    alice = await accountWithCredentials(svc, 'alice');
  }, 60_000);
  afterAll(async () => {
    await svc?.close();
    await smtp?.close();
  });

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
        kind: 'person',
        members: null,
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
      ['an active that is neither 0 nor 1', { active: 2 }, 'active'],
      ['an active that is text', { active: '0' }, 'active'],
      ['an active that is a boolean', { active: false }, 'active'],
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

  describe('acting on accounts: disable, password reset, delete', () => {
    const admin = () => ({ patch: (id: number, body: object) => svc.http().patch(`/admin/accounts/${id}`).set('Cookie', adminCookie).send(body) });
    const me = (credential: [string, string]) =>
      svc
        .http()
        .get('/user')
        .set(...credential);
    const signIn = (a: { username: string; password: string }) => svc.http().post('/auth/login').send({ username: a.username, password: a.password });
    const registered = async (owner: Awaited<ReturnType<typeof accountWithCredentials>>, body: object = {}) => {
      const eui = newEui();
      expectSuccess(
        await svc
          .http()
          .post(`/user/device/${eui}`)
          .set(...bearer(owner.appToken))
          .send(body),
        201,
      );
      return eui;
    };
    const metaOf = async (owner: Awaited<ReturnType<typeof accountWithCredentials>>, eui: string) =>
      svc
        .http()
        .get(`/user/device/meta/${eui}`)
        .set(...bearer(owner.appToken));
    const remove = (id: number, query: string) => svc.http().delete(`/admin/accounts/${id}${query}`).set('Cookie', adminCookie);
    const listed = async (id: number) =>
      (await svc.http().get('/admin/accounts?limit=500').set('Cookie', adminCookie)).body.data.some((a: AdminAccount) => a.id === id);

    it('disables an account: its session and tokens stop at once and it cannot sign in; enabled again, its tokens work and it signs in', async () => {
      const erin = await accountWithCredentials(svc, 'erin');
      const disabled = expectSuccess<AdminAccount>(await admin().patch(erin.account.id, { active: 0 }));
      expect(disabled).toMatchObject({ id: erin.account.id, active: 0 });
      expectError(await me(['Cookie', erin.cookie]), 401, 'AUTH_REQUIRED');
      expectError(await me(bearer(erin.appToken)), 401, 'INVALID_TOKEN');
      expectError(await me(bearer(erin.masterToken)), 401, 'INVALID_TOKEN');
      // Said to whoever knows the password only: a wrong one is the usual answer.
      expectError(await signIn(erin.account), 403, 'ACCOUNT_DISABLED');
      expectError(await signIn({ ...erin.account, password: 'not the password' }), 401, 'INVALID_CREDENTIALS');
      expect((await svc.http().post('/auth/check').send({ username: erin.account.username, password: erin.account.password })).body.data).toEqual({
        valid: false,
      });

      expect(expectSuccess<AdminAccount>(await admin().patch(erin.account.id, { active: 1 }))).toMatchObject({ active: 1 });
      expect(expectSuccess<{ id: number }>(await me(bearer(erin.appToken))).id).toBe(erin.account.id);
      expectSuccess(await signIn(erin.account));
      // The session of before stays ended: enabling is not signing in.
      expectError(await me(['Cookie', erin.cookie]), 401, 'AUTH_REQUIRED');
    });

    it('refuses to disable the caller’s own account (400 naming active), changing nothing', async () => {
      const self = (await svc.http().get('/user').set('Cookie', adminCookie)).body.data as { id: number };
      expectError(await admin().patch(self.id, { active: 0 }), 400, 'VALIDATION_FAILED', 'active');
      expectSuccess(await svc.http().get('/admin/info').set('Cookie', adminCookie));
    });

    it('mails an account a password reset link (202), which sets its password and ends its sessions and tokens', async () => {
      const fay = await accountWithCredentials(svc, 'fay');
      const sent = await svc.http().post(`/admin/accounts/${fay.account.id}/password-reset`).set('Cookie', adminCookie);
      expect(expectSuccess(sent, 202)).toEqual({ id: fay.account.id, email: fay.account.email });
      const mail = await smtp.waitForMail(fay.account.email, 'Password reset');
      const token = /\b([0-9a-f]{64})\b/.exec(mail.text)![1]!;
      // Asking changes nothing by itself: the account works as before until the link is used.
      expectSuccess(await me(bearer(fay.appToken)));
      const password = `pw-${randomBytes(8).toString('hex')}`;
      expectSuccess(await svc.http().post('/auth/restore').send({ token, password }));
      expectError(await me(bearer(fay.appToken)), 401, 'INVALID_TOKEN');
      expectSuccess(await signIn({ username: fay.account.username, password }));
    });

    it('deletes an account with its devices: they are gone, and so are its credentials', async () => {
      const gus = await accountWithCredentials(svc, 'gus');
      const euis = [await registered(gus), await registered(gus)];
      const deleted = expectSuccess(await remove(gus.account.id, '?devices=delete'));
      expect(deleted).toEqual({ id: gus.account.id, deleted: true, devices_deleted: 2, devices_handed_over: 0, to: null });
      expectError(await me(bearer(gus.appToken)), 401, 'INVALID_TOKEN');
      expectError(await signIn(gus.account), 401, 'INVALID_CREDENTIALS');
      expect(await listed(gus.account.id)).toBe(false);
      // Free again: another account registers the same EUIs.
      const next = await accountWithCredentials(svc, 'gusnext');
      for (const eui of euis)
        expectSuccess(
          await svc
            .http()
            .post(`/user/device/${eui}`)
            .set(...bearer(next.appToken))
            .send({}),
          201,
        );
    });

    it('hands an account’s devices to another before deleting it: its own codec falls back to the default', async () => {
      const hal = await accountWithCredentials(svc, 'hal');
      const ivy = await accountWithCredentials(svc, 'ivy');
      const codec = expectSuccess<{ uid: number }>(
        await svc
          .http()
          .post('/user/codec')
          .set(...bearer(hal.appToken))
          .send({ name: 'hal-codec', script: 'function decodeUplink(input) { return { data: { first: input.bytes[0] } }; }' }),
        201,
      );
      const plain = await registered(hal, { label: 'plain one' });
      const coded = await registered(hal, { decoder_ref: codec.uid });
      const handed = expectSuccess(await remove(hal.account.id, `?devices=hand_over&to=${ivy.account.username.toUpperCase()}`));
      expect(handed).toEqual({ id: hal.account.id, deleted: true, devices_deleted: 0, devices_handed_over: 2, to: ivy.account.id });
      expect(expectSuccess<[{ label: string }]>(await metaOf(ivy, plain))[0].label).toBe('plain one');
      expect(expectSuccess<[{ decoder_ref: number }]>(await metaOf(ivy, coded))[0].decoder_ref).toBe(1);
      expectError(await me(bearer(hal.appToken)), 401, 'INVALID_TOKEN');
      expect(await listed(hal.account.id)).toBe(false);
    });

    it('refuses a hand-over past the receiver’s device limit (403 naming to), changing nothing and leaving the account signed in', async () => {
      const jo = await accountWithCredentials(svc, 'jo');
      const kim = await accountWithCredentials(svc, 'kim');
      const eui = await registered(jo);
      await registered(jo);
      expectSuccess(await admin().patch(kim.account.id, { max_devices: 1 }));
      expectError(await remove(jo.account.id, `?devices=hand_over&to=${kim.account.username}`), 403, 'DEVICE_LIMIT_REACHED', 'to');
      expect(expectSuccess<[{ devEUI: string }]>(await metaOf(jo, eui))[0].devEUI).toBe(eui);
      expectSuccess(await me(['Cookie', jo.cookie]));
      expect(await listed(jo.account.id)).toBe(true);
    });

    it.each<[string, (ids: { victim: number; self: number; other: string }) => string, number, string, string]>([
      ['no choice for the devices', ({ victim }) => `${victim}`, 400, 'VALIDATION_FAILED', 'devices'],
      ['a choice that is none of the two', ({ victim }) => `${victim}?devices=keep`, 400, 'VALIDATION_FAILED', 'devices'],
      ['a hand-over to nobody', ({ victim }) => `${victim}?devices=hand_over`, 400, 'VALIDATION_FAILED', 'to'],
      ['a receiver with deletion', ({ victim, other }) => `${victim}?devices=delete&to=${other}`, 400, 'VALIDATION_FAILED', 'to'],
      ['a receiver that does not exist', ({ victim }) => `${victim}?devices=hand_over&to=nobody_${randomBytes(3).toString('hex')}`, 404, 'NOT_FOUND', 'to'],
      ['the account itself as receiver', ({ victim }) => `${victim}?devices=hand_over&to=__self__`, 400, 'VALIDATION_FAILED', 'to'],
      ['the caller’s own account', ({ self }) => `${self}?devices=delete`, 400, 'VALIDATION_FAILED', 'id'],
      ['an account that does not exist', () => '999999?devices=delete', 404, 'NOT_FOUND', 'id'],
      ['an id that is no number', () => 'x?devices=delete', 400, 'VALIDATION_FAILED', 'id'],
    ])('refuses to delete with %s, deleting nothing', async (_what, path, status, code, field) => {
      const victim = await accountWithCredentials(svc, 'victim');
      const other = await registerAccount(svc, 'other');
      const self = ((await svc.http().get('/user').set('Cookie', adminCookie)).body.data as { id: number }).id;
      const url = path({ victim: victim.account.id, self, other: other.username }).replace('__self__', victim.account.username);
      expectError(await svc.http().delete(`/admin/accounts/${url}`).set('Cookie', adminCookie), status, code, field);
      expectSuccess(await me(['Cookie', victim.cookie]));
      expectSuccess(await svc.http().get('/admin/info').set('Cookie', adminCookie));
    });

    it('refuses a normal account (403 ADMIN_ONLY) and nobody (401) on every action, changing nothing', async () => {
      const lea = await accountWithCredentials(svc, 'lea');
      const target = alice.account.id;
      const attempts = [
        (r: ReturnType<TestService['http']>) => r.patch(`/admin/accounts/${target}`).send({ active: 0 }),
        (r: ReturnType<TestService['http']>) => r.post(`/admin/accounts/${target}/password-reset`),
        (r: ReturnType<TestService['http']>) => r.delete(`/admin/accounts/${target}?devices=delete`),
      ];
      for (const attempt of attempts) {
        expectError(await attempt(svc.http()).set(...bearer(lea.masterToken)), 403, 'ADMIN_ONLY');
        expectError(await attempt(svc.http()).set('Cookie', lea.cookie), 403, 'ADMIN_ONLY');
        expectError(await attempt(svc.http()), 401, 'AUTH_REQUIRED');
      }
      expectSuccess(await me(bearer(alice.appToken)));
      expect(smtp.mailsTo(alice.account.email, 'Password reset')).toHaveLength(0);
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
