import { type AccountWire, type AdminAccountWire, type DeviceMetaWire, RAW_HISTORY_FROM_HEADER, RETENTION_DAYS_HEADER, type SeriesWire } from '@dts/domain';
import { TimeseriesMaintenance } from '@dts/jobs';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Response } from 'supertest';
import { accountWithCredentials, login, tokenClient } from './support/accounts';
import { expectError, expectSuccess } from './support/envelope';
import { startTestService, TEST_SECRETS, type TestService } from './support/harness';
import { lpp } from './support/payloads';
import { at } from './support/present';

/*
 * Retention of raw uplinks where users and administrators meet it (docs/api.md §5, "Retention"):
 * an administrator sets an account's value (PATCH /admin/accounts/{id}), the owner a device's
 * shorter one (POST /user/device/meta/{eui}); device metadata, GET /user and the admin list say
 * what is in force; the history reads say in their headers where raw history begins; and after the
 * worker's time-series upkeep the history holds only what the retention keeps, while the daily
 * series still answers for every day from the rollups.
 */

type Caller = Awaited<ReturnType<typeof accountWithCredentials>>;
const DAY = 86_400;
const ADMIN = { username: 'retention_admin', password: 'retention-admin-password-01' };
const newEui = () => randomBytes(8).toString('hex').toUpperCase();
/** The UTC midnight `days` before today's: where a retention of `days` cuts raw uplinks off today. */
const cutoff = (days: number, now = Date.now()) => Math.floor(now / 1000 / DAY) * DAY - days * DAY;

/** The retention headers of a history answer: both, by name, absent ones as undefined. */
const retentionHeaders = (res: Response) => ({
  days: res.headers[RETENTION_DAYS_HEADER.toLowerCase()] as string | undefined,
  from: res.headers[RAW_HISTORY_FROM_HEADER.toLowerCase()] as string | undefined,
});

describe('retention of raw uplinks (no platform default: kept unless an account or device says otherwise)', () => {
  let svc: TestService;
  let adminCookie: string;
  let alice: Caller;
  let bob: Caller;
  let carol: Caller;

  const as = (who: Caller) => tokenClient(svc, who.masterToken);
  const admin = {
    patch: (id: number, body: object) => svc.http().patch(`/admin/accounts/${id}`).set('Cookie', adminCookie).send(body),
    one: async (who: Caller) =>
      at(expectSuccess<AdminAccountWire[]>(await svc.http().get(`/admin/accounts?q=${who.account.username}`).set('Cookie', adminCookie)), 0, 'account'),
  };
  const me = async (who: Caller) => expectSuccess<AccountWire>(await as(who).get('/user'));
  const meta = async (who: Caller, eui: string) => at(expectSuccess<DeviceMetaWire[]>(await as(who).get(`/user/device/meta/${eui}`)), 0, 'device');
  const setDevice = (who: Caller, eui: string, body: object) => as(who).post(`/user/device/meta/${eui}`, body);
  /** A device of alice's, shared with bob. */
  const device = async () => {
    const eui = newEui();
    expectSuccess(await as(alice).post(`/user/device/${eui}`, { label: 'retained', decoder_ref: 2 }), 201);
    expectSuccess(await as(alice).post(`/user/device/share/${eui}`, { username: bob.account.username }), 201);
    return eui;
  };
  const ingest = async (items: object[]) =>
    expect(
      expectSuccess<{ accepted: number }>(await svc.http().post('/ingest/rest').set('X-Ingest-Secret', TEST_SECRETS.INGEST_SECRET).send(items), 202).accepted,
    ).toBe(items.length);

  beforeAll(async () => {
    svc = await startTestService({ env: { ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password, AUTH_RATE_LIMIT_PER_MINUTE: '1000' } });
    adminCookie = await login(svc, { id: 0, email: '', ...ADMIN });
    [alice, bob, carol] = await Promise.all([accountWithCredentials(svc, 'alice'), accountWithCredentials(svc, 'bob'), accountWithCredentials(svc, 'carol')]);
  }, 60_000);
  afterAll(() => svc?.close());
  // Each test starts from alice's account keeping everything (the platform has no default here).
  beforeEach(async () => {
    expectSuccess(await admin.patch(alice.account.id, { uplink_retention_days: null }));
  });

  describe('an account’s retention (administrators)', () => {
    it('is set, listed, shown to the account in GET /user, and given back to the platform default with null', async () => {
      expect(await admin.one(alice)).toMatchObject({ id: alice.account.id, uplink_retention_days: null, uplink_retention_effective_days: null });
      expect((await me(alice)).uplink_retention_effective_days).toBeNull();

      const set = expectSuccess<AdminAccountWire>(await admin.patch(alice.account.id, { uplink_retention_days: 30 }));
      expect(set).toMatchObject({ id: alice.account.id, uplink_retention_days: 30, uplink_retention_effective_days: 30 });
      expect(await admin.one(alice)).toEqual(set);
      expect((await me(alice)).uplink_retention_effective_days).toBe(30);
      // Only the retention moved.
      expect({ expiration: set.expiration, max_devices: set.max_devices }).toEqual({
        expiration: (await me(alice)).expiration,
        max_devices: svc.config.accounts.maxDevices,
      });

      // Another member alone leaves the retention as it is; null gives it back to the platform (which keeps).
      expect(expectSuccess<AdminAccountWire>(await admin.patch(alice.account.id, { max_devices: 40 }))).toMatchObject({
        max_devices: 40,
        uplink_retention_days: 30,
      });
      expect(expectSuccess<AdminAccountWire>(await admin.patch(alice.account.id, { uplink_retention_days: null, max_devices: 50 }))).toMatchObject({
        max_devices: 50,
        uplink_retention_days: null,
        uplink_retention_effective_days: null,
      });
      expect((await me(alice)).uplink_retention_effective_days).toBeNull();
      // Another account's is its own.
      expect((await me(carol)).uplink_retention_effective_days).toBeNull();
    });

    it.each<[string, unknown]>([
      ['zero days', 0],
      ['negative days', -7],
      ['more than a hundred years', 36_501],
      ['a fraction', 2.5],
      ['a number as text', '30'],
      ['a boolean', true],
    ])('refuses %s with 400 naming uplink_retention_days, storing nothing', async (_what, value) => {
      expectSuccess(await admin.patch(alice.account.id, { uplink_retention_days: 45 }));
      const before = await admin.one(alice);
      expectError(await admin.patch(alice.account.id, { uplink_retention_days: value }), 400, 'VALIDATION_FAILED', 'uplink_retention_days');
      expect(await admin.one(alice)).toEqual(before);
      expect((await me(alice)).uplink_retention_effective_days).toBe(45);
    });

    it('is an administrator’s: 403 ADMIN_ONLY for the account itself, 401 without credentials, nothing stored', async () => {
      expectError(await as(alice).patch(`/admin/accounts/${alice.account.id}`, { uplink_retention_days: 3_650 }), 403, 'ADMIN_ONLY');
      expectError(
        await svc.http().patch(`/admin/accounts/${alice.account.id}`).set('Cookie', alice.cookie).send({ uplink_retention_days: 1 }),
        403,
        'ADMIN_ONLY',
      );
      expectError(await as(alice).get('/admin/accounts'), 403, 'ADMIN_ONLY');
      expectError(await svc.http().patch(`/admin/accounts/${alice.account.id}`).send({ uplink_retention_days: 1 }), 401, 'AUTH_REQUIRED');
      expectError(await svc.http().get('/admin/accounts'), 401, 'AUTH_REQUIRED');
      expect((await me(alice)).uplink_retention_effective_days).toBeNull();
      expectError(await admin.patch(999_999, { uplink_retention_days: 5 }), 404, 'NOT_FOUND');
    });
  });

  describe('a device’s retention (its owner)', () => {
    it('is set shorter than the account’s, shown as its own and in force in meta/{eui} and meta/all, to the owner and a shared user', async () => {
      expectSuccess(await admin.patch(alice.account.id, { uplink_retention_days: 30 }));
      const eui = await device();
      expect(await meta(alice, eui)).toMatchObject({ uplink_retention_days: null, uplink_retention_effective_days: 30 });

      const [answer] = expectSuccess<DeviceMetaWire[]>(await setDevice(alice, eui, { uplink_retention_days: 10 }));
      expect(answer).toMatchObject({ devEUI: eui, uplink_retention_days: 10, uplink_retention_effective_days: 10 });
      expect(await meta(alice, eui)).toEqual(answer);
      expect(await meta(bob, eui)).toEqual(answer);
      const all = expectSuccess<DeviceMetaWire[]>(await as(alice).get('/user/device/meta/all'));
      expect(all.find((d) => d.devEUI === eui)).toEqual(answer);
      // The filtered, paged list maps the same rows.
      const listed = expectSuccess<DeviceMetaWire[]>(await as(alice).get(`/user/device/meta/all?q=${eui}&limit=5`));
      expect(listed).toEqual([answer]);

      // The account's own value equals it: allowed (nothing longer). Null gives the device back to the account's.
      expect(at(expectSuccess<DeviceMetaWire[]>(await setDevice(alice, eui, { uplink_retention_days: 30 })), 0)).toMatchObject({
        uplink_retention_effective_days: 30,
      });
      expect(at(expectSuccess<DeviceMetaWire[]>(await setDevice(alice, eui, { uplink_retention_days: null })), 0)).toMatchObject({
        uplink_retention_days: null,
        uplink_retention_effective_days: 30,
      });
    });

    it('may not lengthen the account’s retention: 400 naming uplink_retention_days, nothing stored; with nothing in force any value is a shortening', async () => {
      expectSuccess(await admin.patch(alice.account.id, { uplink_retention_days: 30 }));
      const eui = await device();
      expectSuccess(await setDevice(alice, eui, { uplink_retention_days: 7, label: 'before' }));
      const before = await meta(alice, eui);
      const [problem] = expectError(
        await setDevice(alice, eui, { uplink_retention_days: 31, label: 'after' }),
        400,
        'VALIDATION_FAILED',
        'uplink_retention_days',
      );
      expect(problem?.message).toMatch(/a device may only shorten its account’s retention of 30 days/);
      expect(await meta(alice, eui)).toEqual(before);

      // Kept forever by the account: a hundred years is shorter.
      expectSuccess(await admin.patch(alice.account.id, { uplink_retention_days: null }));
      expect(at(expectSuccess<DeviceMetaWire[]>(await setDevice(alice, eui, { uplink_retention_days: 36_500 })), 0)).toMatchObject({
        uplink_retention_days: 36_500,
        uplink_retention_effective_days: 36_500,
      });
    });

    it('counts only where it is still the shorter after an administrator shortens the account', async () => {
      const eui = await device();
      expectSuccess(await setDevice(alice, eui, { uplink_retention_days: 20 }));
      expectSuccess(await admin.patch(alice.account.id, { uplink_retention_days: 5 }));
      expect(await meta(alice, eui)).toMatchObject({ uplink_retention_days: 20, uplink_retention_effective_days: 5 });
      // The history says what the worker will do: 5 days.
      const res = await as(alice).get(`/user/device/table/${eui}`);
      expectSuccess(res);
      expect(retentionHeaders(res)).toEqual({ days: '5', from: String(cutoff(5)) });
    });

    it.each<[string, unknown]>([
      ['zero days', 0],
      ['more than a hundred years', 36_501],
      ['a fraction', 1.5],
      ['a number as text', '10'],
      ['an object', { days: 10 }],
    ])('refuses %s with 400 naming uplink_retention_days, storing nothing', async (_what, value) => {
      const eui = await device();
      expectSuccess(await setDevice(alice, eui, { uplink_retention_days: 12 }));
      const before = await meta(alice, eui);
      expectError(await setDevice(alice, eui, { uplink_retention_days: value, label: 'changed' }), 400, 'VALIDATION_FAILED', 'uplink_retention_days');
      expect(await meta(alice, eui)).toEqual(before);
    });

    it('is the owner’s: a shared user gets 403 FORBIDDEN naming it (and still edits the label), another account 404, nobody 401; nothing stored', async () => {
      const eui = await device();
      expectSuccess(await setDevice(alice, eui, { uplink_retention_days: 15 }));
      const before = await meta(alice, eui);
      expectError(await setDevice(bob, eui, { uplink_retention_days: 3 }), 403, 'FORBIDDEN', 'uplink_retention_days');
      expectError(await setDevice(bob, eui, { uplink_retention_days: null, label: 'bob' }), 403, 'FORBIDDEN', 'uplink_retention_days');
      expectError(await setDevice(carol, eui, { uplink_retention_days: 3 }), 404, 'NOT_FOUND');
      expectError(await svc.http().post(`/user/device/meta/${eui}`).send({ uplink_retention_days: 3 }), 401, 'AUTH_REQUIRED');
      expect(await meta(alice, eui)).toEqual(before);
      expect(at(expectSuccess<DeviceMetaWire[]>(await setDevice(bob, eui, { label: 'edited by bob' })), 0)).toMatchObject({
        label: 'edited by bob',
        uplink_retention_days: 15,
      });
      expectError(await as(carol).get(`/user/device/meta/${eui}`), 404, 'NOT_FOUND');
    });
  });

  describe('the history answers say where raw history begins', () => {
    const FORMATS = ['json', 'csv', 'ndjson'] as const;
    const VIEWS = ['table', 'data', 'data?filter=temperature&'] as const;
    const read = (who: Caller, eui: string, view: string, format: string) =>
      as(who).get(`/user/device/${view.startsWith('data?') ? `data/${eui}?${view.slice(5)}` : `${view}/${eui}?`}format=${format}`);

    it('kept forever: X-Retention-Days unlimited and no X-Raw-History-From, in every view and format', async () => {
      const eui = await device();
      for (const view of VIEWS)
        for (const format of FORMATS) {
          const res = await read(bob, eui, view, format);
          expect({ view, format, status: res.status, ...retentionHeaders(res) }).toEqual({ view, format, status: 200, days: 'unlimited', from: undefined });
        }
    });

    it('limited: the days in force and the UTC midnight before which raw uplinks go, in every view and format; the typed client reads them', async () => {
      expectSuccess(await admin.patch(alice.account.id, { uplink_retention_days: 40 }));
      const eui = await device();
      expectSuccess(await setDevice(alice, eui, { uplink_retention_days: 10 }));
      for (const view of VIEWS)
        for (const format of FORMATS) {
          const res = await read(bob, eui, view, format);
          expect({ view, format, status: res.status, ...retentionHeaders(res) }).toEqual({
            view,
            format,
            status: 200,
            days: '10',
            from: String(cutoff(10)),
          });
        }
      expect((await alice.client.uplinks.tableWithRetention(eui, { limit: 1 })).retention).toEqual({ retention_days: 10, raw_history_from_unix: cutoff(10) });
      expect((await bob.client.uplinks.dataWithRetention(eui)).retention).toEqual({ retention_days: 10, raw_history_from_unix: cutoff(10) });
      // The account's, once the device has none of its own.
      expectSuccess(await setDevice(alice, eui, { uplink_retention_days: null }));
      expect((await alice.client.uplinks.tableWithRetention(eui)).retention).toEqual({ retention_days: 40, raw_history_from_unix: cutoff(40) });
    });

    it('a refused read says nothing of retention', async () => {
      const eui = await device();
      const res = await as(carol).get(`/user/device/table/${eui}`);
      expectError(res, 404, 'NOT_FOUND');
      expect(retentionHeaders(res)).toEqual({ days: undefined, from: undefined });
      const bad = await as(alice).get(`/user/device/data/${eui}?from=10&to=5`);
      expectError(bad, 400, 'VALIDATION_FAILED', 'to');
      expect(retentionHeaders(bad)).toEqual({ days: undefined, from: undefined });
    });
  });

  it('end to end: 40 days of uplinks, a 10-day retention and one upkeep — the history keeps the last 10 days and says so, the data start moved, the daily series answers every day', async () => {
    const eui = await device();
    const keeper = await device();
    expectSuccess(await setDevice(alice, eui, { uplink_retention_days: 10 }));
    const today = cutoff(0);
    // Two readings on each of the 40 days before today (06:00 and 18:00 UTC): temperature = the day's number.
    const items = [];
    for (let k = 1; k <= 40; k++)
      for (const hour of [6, 18])
        items.push({ devEUI: eui, port: 1, payload_hex: lpp({ t: k }), time_stamp_unix: today - k * DAY + hour * 3_600, fcnt: k * 100 + hour });
    await ingest(items);
    // A device of the same account without a retention of its own, with uplinks as old.
    const old = [39, 30].map((k) => ({ devEUI: keeper, port: 1, payload_hex: lpp({ t: k }), time_stamp_unix: today - k * DAY, fcnt: k }));
    await ingest(old);
    const times = (rows: { ts_unix: number }[]) => rows.map((r) => r.ts_unix);
    expect(times(expectSuccess<{ ts_unix: number }[]>(await as(alice).get(`/user/device/data/${eui}`)))).toHaveLength(80);
    expect((await meta(alice, eui)).ts_data_first_unix).toBe(today - 40 * DAY + 6 * 3_600);

    // A UTC midnight may pass between the upkeep and the reads: then the cut is a day later, and the
    // upkeep runs again for it (as the worker's next run would).
    const upkeep = svc.app.get(TimeseriesMaintenance);
    let from = cutoff(10);
    let deleted = (await upkeep.run()).rawRowsDeleted;
    const table = async () => {
      const res = await as(alice).get(`/user/device/table/${eui}`);
      return { res, rows: expectSuccess<{ ts_unix: number }[]>(res) };
    };
    let answer = await table();
    if (cutoff(10) !== from) {
      from = cutoff(10);
      deleted += (await upkeep.run()).rawRowsDeleted;
      answer = await table();
    }
    const kept = items.map((i) => i.time_stamp_unix).filter((t) => t >= from);
    expect(kept).toHaveLength(from === today - 10 * DAY ? 20 : 18);
    expect(deleted).toBe(items.length - kept.length);
    expect(times(answer.rows)).toEqual(kept.sort((a, b) => a - b));
    expect(retentionHeaders(answer.res)).toEqual({ days: '10', from: String(from) });
    const data = await as(alice).get(`/user/device/data/${eui}`);
    expect(times(expectSuccess<{ ts_unix: number }[]>(data))).toEqual(kept);
    expect(retentionHeaders(data)).toEqual({ days: '10', from: String(from) });
    const csv = await as(alice).get(`/user/device/data/${eui}?format=csv`);
    expect(csv.text.trim().split('\n')).toHaveLength(kept.length + 1);
    expect(retentionHeaders(csv)).toEqual({ days: '10', from: String(from) });

    // The device's data now begins at the cut, for the owner and the shared user alike.
    expect((await meta(alice, eui)).ts_data_first_unix).toBe(from);
    expect((await meta(bob, eui)).ts_data_first_unix).toBe(from);

    // The rollups outlive the raw uplinks: one bucket per day of the 40, each with its two readings.
    const series = expectSuccess<SeriesWire>(
      await as(alice).get(`/user/device/series/${eui}?members=temperature&from=${today - 40 * DAY}&to=${today - 1}&interval=1d&agg=count,min`),
    );
    expect(series.t).toEqual(Array.from({ length: 40 }, (_, i) => today - (40 - i) * DAY));
    expect(series.members.temperature).toEqual({ count: Array(40).fill(2), min: Array.from({ length: 40 }, (_, i) => 40 - i) });

    // The other device of the account, kept forever, lost nothing.
    expect(times(expectSuccess<{ ts_unix: number }[]>(await as(alice).get(`/user/device/data/${keeper}`)))).toEqual(old.map((i) => i.time_stamp_unix));
    expect((await meta(alice, keeper)).ts_data_first_unix).toBe(today - 39 * DAY);
  }, 60_000);
});

describe('retention of raw uplinks with a platform default (UPLINK_RETENTION_DAYS=90)', () => {
  let svc: TestService;
  let adminCookie: string;
  let dora: Caller;
  const as = (who: Caller) => tokenClient(svc, who.masterToken);

  beforeAll(async () => {
    svc = await startTestService({
      env: { UPLINK_RETENTION_DAYS: '90', IMAGE_RETENTION_DAYS: '30', ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password },
    });
    adminCookie = await login(svc, { id: 0, email: '', ...ADMIN });
    dora = await accountWithCredentials(svc, 'dora');
  }, 60_000);
  afterAll(() => svc?.close());

  it('is in force for an account without its own, which an administrator may replace longer or shorter; a device may only shorten what is in force', async () => {
    const eui = newEui();
    expectSuccess(await as(dora).post(`/user/device/${eui}`, {}), 201);
    const account = async () => expectSuccess<AccountWire>(await as(dora).get('/user')).uplink_retention_effective_days;
    const device = async () => at(expectSuccess<DeviceMetaWire[]>(await as(dora).get(`/user/device/meta/${eui}`)), 0);
    const listed = async () =>
      at(expectSuccess<AdminAccountWire[]>(await svc.http().get(`/admin/accounts?q=${dora.account.username}`).set('Cookie', adminCookie)), 0);
    const headers = async () => retentionHeaders(await as(dora).get(`/user/device/table/${eui}?format=ndjson`));

    expect(await account()).toBe(90);
    expect(await listed()).toMatchObject({ uplink_retention_days: null, uplink_retention_effective_days: 90 });
    expect(await device()).toMatchObject({ uplink_retention_days: null, uplink_retention_effective_days: 90 });
    expect(await headers()).toEqual({ days: '90', from: String(cutoff(90)) });
    expectError(await as(dora).post(`/user/device/meta/${eui}`, { uplink_retention_days: 91 }), 400, 'VALIDATION_FAILED', 'uplink_retention_days');

    // Longer than the platform's for this account: its own value replaces the default.
    expectSuccess(await svc.http().patch(`/admin/accounts/${dora.account.id}`).set('Cookie', adminCookie).send({ uplink_retention_days: 400 }));
    expect(await account()).toBe(400);
    expect(await device()).toMatchObject({ uplink_retention_effective_days: 400 });
    expectSuccess(await as(dora).post(`/user/device/meta/${eui}`, { uplink_retention_days: 120 }));
    expect(await device()).toMatchObject({ uplink_retention_days: 120, uplink_retention_effective_days: 120 });
    expect(await headers()).toEqual({ days: '120', from: String(cutoff(120)) });

    // Back to the platform's: the device's 120 no longer shortens anything.
    expectSuccess(await svc.http().patch(`/admin/accounts/${dora.account.id}`).set('Cookie', adminCookie).send({ uplink_retention_days: null }));
    expect(await account()).toBe(90);
    expect(await device()).toMatchObject({ uplink_retention_days: 120, uplink_retention_effective_days: 90 });
    expect(await headers()).toEqual({ days: '90', from: String(cutoff(90)) });
  });

  it('retires images photographed before IMAGE_RETENTION_DAYS, their bytes with them, and keeps the newer', async () => {
    const eui = newEui();
    expectSuccess(await as(dora).post(`/user/device/${eui}`, {}), 201);
    const photo = readFileSync(join(__dirname, '../../../test-data/camera-traps/photos/ocelot.jpg'));
    const other = readFileSync(join(__dirname, '../../../test-data/camera-traps/photos/african_elephants.jpg'));
    const upload = async (file: Buffer, daysAgo: number) =>
      expectSuccess<{ hash: string; meta: { url: string } }>(
        await svc
          .http()
          .post(`/user/device/image/${eui}`)
          .set('Authorization', `Bearer ${dora.masterToken}`)
          .field('ts_photo_unix', String(Math.floor(Date.now() / 1000) - daysAgo * DAY))
          .attach('file', file, 'trap.jpg'),
        201,
      );
    const old = await upload(photo, 45);
    const recent = await upload(other, 3);
    // The signed file link of the old photo serves its bytes until the upkeep.
    const file = new URL(old.meta.url);
    expect((await svc.http().get(`${file.pathname}${file.search}`)).status).toBe(200);

    const report = await svc.app.get(TimeseriesMaintenance).run();
    expect(report.imagesRetired).toBe(1);
    expectError(await as(dora).get(`/user/device/image/${eui}/${old.hash}`), 404, 'NOT_FOUND');
    expectSuccess(await as(dora).get(`/user/device/image/${eui}/${recent.hash}`));
    expect((await svc.http().get(`${file.pathname}${file.search}`)).status).toBe(404);
    const listed = expectSuccess<{ hash: string }[]>(await as(dora).get(`/user/device/image/${eui}`));
    expect(listed.map((i) => i.hash)).toEqual([recent.hash]);
  });
});
