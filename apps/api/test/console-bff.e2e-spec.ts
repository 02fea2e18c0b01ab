import type { DeviceMetaWire, SeriesWire } from '@dts/domain';
import { getDataSourceToken } from '@nestjs/typeorm';
import { randomBytes } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { accountWithCredentials, bearer } from './support/accounts';
import { expectApiError, expectError, expectSuccess } from './support/envelope';
import { startTestService, TEST_SECRETS, type TestService } from './support/harness';
import { lpp } from './support/payloads';

/*
 * The routes the web console needs beyond the spec's (docs/api.md §4, §5): the device list with
 * filters, sort and pages; aggregated series; the account overview; the console's settings.
 */

type Caller = Awaited<ReturnType<typeof accountWithCredentials>>;
const newEui = () => randomBytes(8).toString('hex').toUpperCase();
const HOUR = 3_600;
/** An hour boundary well in the past: buckets are epoch-aligned. */
const T0 = 1_776_002_400;

/** A DT Environment report (12 bytes); humidity null is the sensor's "no reading" (0xFF). */
function environment(t: number, h: number | null, hPa: number): string {
  const b = Buffer.alloc(12);
  b.writeInt16BE(t * 100, 0);
  b.writeUInt8(h === null ? 0xff : h * 2, 2);
  b.writeUInt16BE(hPa * 10, 3);
  b.writeUInt16BE(3600, 9);
  b.writeUInt8(90, 11);
  return b.toString('hex');
}

describe('console BFF routes', () => {
  let svc: TestService;
  let alice: Caller;
  let bob: Caller;
  const euis: string[] = [];
  let sensor: string;

  const get = (path: string, who: Caller | null = alice) => {
    const req = svc.http().get(path);
    return who ? req.set(...bearer(who.appToken)) : req;
  };
  const ingest = async (items: object[]) =>
    expect(
      expectSuccess<{ accepted: number }>(await svc.http().post('/ingest/rest').set('X-Ingest-Secret', TEST_SECRETS.INGEST_SECRET).send(items), 202).accepted,
    ).toBe(items.length);

  beforeAll(async () => {
    svc = await startTestService();
    [alice, bob] = await Promise.all([accountWithCredentials(svc, 'alice'), accountWithCredentials(svc, 'bob')]);
    // Twelve devices: labels in two cases, three folders (one null), two types, batteries with gaps.
    for (let i = 0; i < 12; i++) {
      const eui = `70B3D57ED00000${String(i + 10).padStart(2, '0')}`;
      euis.push(eui);
      const body = {
        label: `${i % 2 ? 'Bike' : 'bike'} ${String(11 - i).padStart(2, '0')}`,
        folder: i % 3 === 0 ? null : `park/${i % 3}`,
        type_ref: i < 6 ? 1 : 3,
      };
      await alice.client.devices.register(eui, body);
      if (i % 4 !== 0) await alice.client.meta.update(eui, { battery_percent: 8 * i });
    }
    sensor = euis[6]!;
    await alice.client.meta.update(sensor, { decoder_ref: 4 });
    // Two devices heard now (online), one long ago (offline), the rest never.
    await ingest([
      { devEUI: euis[1], port: 1, payload_hex: lpp({ t: 20 }) },
      { devEUI: euis[2], port: 1, payload_hex: lpp({ t: 21 }) },
      { devEUI: euis[3], port: 1, payload_hex: lpp({ t: 22 }), time_stamp_unix: T0 },
    ]);
    expectSuccess(
      await svc
        .http()
        .post(`/user/device/${newEui()}`)
        .set(...bearer(bob.appToken))
        .send({ label: 'bob’s' }),
      201,
    );
  }, 60_000);
  afterAll(() => svc?.close());

  describe('GET /user/device/meta/all', () => {
    it('answers as the spec’s route without query members', async () => {
      const res = await get('/user/device/meta/all');
      const rows = expectSuccess<DeviceMetaWire[]>(res);
      expect(res.body.meta).toEqual([]);
      expect(rows.map((r) => r.devEUI)).toEqual([...euis].sort());
    });

    it('pages through every device once, in the chosen order, with total and cursor', async () => {
      for (const sort of ['label', '-label', 'battery', '-battery', 'folder', '-last_seen', 'type', 'eui'] as const) {
        const seen: DeviceMetaWire[] = [];
        let cursor: string | undefined;
        do {
          const page = await alice.client.meta.list({ sort, limit: 5, cursor });
          expect(page.meta.total).toBe(12);
          expect(page.devices.length).toBeLessThanOrEqual(5);
          seen.push(...page.devices);
          cursor = page.meta.next_cursor ?? undefined;
        } while (cursor);
        const all = await alice.client.meta.list({ sort });
        expect(seen.map((d) => d.devEUI)).toEqual(all.devices.map((d) => d.devEUI));
        expect(new Set(seen.map((d) => d.devEUI)).size).toBe(12);
      }
      const byBattery = (await alice.client.meta.list({ sort: '-battery' })).devices.map((d) => d.battery_percent);
      // Highest first, devices without a value last.
      expect(byBattery).toEqual([88, 80, 72, 56, 48, 40, 24, 16, 8, null, null, null]);
      const byLabel = (await alice.client.meta.list({ sort: 'label' })).devices.map((d) => d.label);
      expect(byLabel).toEqual([...byLabel].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())));
    });

    it('filters by text, folder, type and online state', async () => {
      const q = await alice.client.meta.list({ q: 'BIKE 0' });
      expect(q.devices.map((d) => d.label).sort()).toEqual(
        ['Bike 00', 'Bike 02', 'Bike 04', 'Bike 06', 'Bike 08', 'bike 01', 'bike 03', 'bike 05', 'bike 07', 'bike 09'].sort(),
      );
      expect((await alice.client.meta.list({ q: euis[5]!.slice(0, 4) + '-' + euis[5]!.slice(4) })).devices.map((d) => d.devEUI)).toEqual([euis[5]]);
      expect((await alice.client.meta.list({ folder: 'park/1' })).devices.every((d) => d.folder === 'park/1')).toBe(true);
      expect((await alice.client.meta.list({ type_ref: 3 })).meta.total).toBe(6);
      const online = await alice.client.meta.list({ online: true });
      expect(online.devices.map((d) => d.devEUI).sort()).toEqual([euis[1], euis[2]]);
      expect(online.meta.online_threshold_s).toBe(3_600);
      expect((await alice.client.meta.list({ online: false })).meta.total).toBe(10);
      expect((await alice.client.meta.list({ q: '%' })).meta.total).toBe(0);
    });

    it('refuses bad members naming them, and another sort’s cursor', async () => {
      expectError(await get('/user/device/meta/all?limit=0'), 400, 'VALIDATION_FAILED', 'limit');
      expectError(await get('/user/device/meta/all?limit=abc'), 400, 'VALIDATION_FAILED', 'limit');
      expectError(await get('/user/device/meta/all?sort=uid'), 400, 'VALIDATION_FAILED', 'sort');
      expectError(await get('/user/device/meta/all?online=yes'), 400, 'VALIDATION_FAILED', 'online');
      expectError(await get('/user/device/meta/all?type_ref=x'), 400, 'VALIDATION_FAILED', 'type_ref');
      expectError(await get('/user/device/meta/all?cursor=not%20a%20cursor'), 400, 'VALIDATION_FAILED', 'cursor');
      expectError(await get('/user/device/meta/all?cursor=WzEsMiwzXQ'), 400, 'VALIDATION_FAILED', 'cursor');
      expectError(await get('/user/device/meta/all?color=red'), 400, 'VALIDATION_FAILED', 'color');
      const page = await alice.client.meta.list({ sort: 'label', limit: 2 });
      await expectApiError(alice.client.meta.list({ sort: 'battery', limit: 2, cursor: page.meta.next_cursor! }), 400, 'VALIDATION_FAILED', 'cursor');
    });

    it('needs credentials and shows no other account’s devices', async () => {
      expectError(await get('/user/device/meta/all?limit=5', null), 401, 'AUTH_REQUIRED');
      const bobs = await bob.client.meta.list({ limit: 100 });
      expect(bobs.meta.total).toBe(1);
      expect(bobs.devices.map((d) => d.devEUI)).not.toEqual(expect.arrayContaining([euis[0]]));
      expect((await bob.client.meta.list({ q: 'bike' })).meta.total).toBe(0);
    });
  });

  describe('GET /user/device/series/{eui}', () => {
    beforeAll(async () => {
      // Three hours of environment reports, four an hour; the third hour without humidity readings.
      const items = [];
      for (let i = 0; i < 12; i++) {
        items.push({ devEUI: sensor, port: 1, payload_hex: environment(10 + i, i < 8 ? 40 + i : null, 1000 + i), time_stamp_unix: T0 + i * 900, fcnt: i });
      }
      await ingest(items);
    });

    it('aggregates members into buckets in SQL, columns aligned with t', async () => {
      const series = await alice.client.uplinks.series(sensor, {
        members: ['temperature', 'humidity', 'pressure'],
        from: T0,
        to: T0 + 3 * HOUR - 1,
        interval: '1h',
      });
      expect(series).toEqual<SeriesWire>({
        from: T0,
        to: T0 + 3 * HOUR - 1,
        interval: '1h',
        interval_s: HOUR,
        t: [T0, T0 + HOUR, T0 + 2 * HOUR],
        members: {
          temperature: { min: [10, 14, 18], avg: [11.5, 15.5, 19.5], max: [13, 17, 21], count: [4, 4, 4] },
          humidity: { min: [40, 44, null], avg: [41.5, 45.5, null], max: [43, 47, null], count: [4, 4, 0] },
          // A member of the decoded payload (not a column of its own).
          pressure: { min: [1000, 1004, 1008], avg: [1001.5, 1005.5, 1009.5], max: [1003, 1007, 1011], count: [4, 4, 4] },
        },
        rollup_backfill_until_unix: null,
      });
      const avg = await alice.client.uplinks.series(sensor, { members: ['temperature'], from: T0, to: T0 + 3 * HOUR, interval: '1d', agg: ['avg', 'count'] });
      expect(avg.members).toEqual({ temperature: { avg: [15.5], count: [12] } });
    });

    it('picks the interval for at most 1,000 buckets with auto, and defaults to the last day', async () => {
      const auto = await alice.client.uplinks.series(sensor, { members: ['temperature'], from: T0, to: T0 + 30 * 86_400 });
      expect(auto.interval).toBe('1h');
      expect(auto.t).toEqual([T0, T0 + HOUR, T0 + 2 * HOUR]);
      const recent = await alice.client.uplinks.series(sensor, { members: ['temperature'] });
      expect(recent.to - recent.from).toBe(86_400);
      expect(recent.interval).toBe('5m');
      expect(recent.t).toEqual([]);
    });

    it('refuses bad input naming the member', async () => {
      const path = `/user/device/series/${sensor}`;
      expectError(await get(path), 400, 'VALIDATION_FAILED', 'members');
      expectError(await get(`${path}?members=temperature,nonsense`), 400, 'VALIDATION_FAILED', 'members');
      expectError(await get(`${path}?members=temp;drop`), 400, 'VALIDATION_FAILED', 'members');
      expectError(await get(`${path}?members=temperature&from=10&to=5`), 400, 'VALIDATION_FAILED', 'to');
      expectError(await get(`${path}?members=temperature&interval=2h`), 400, 'VALIDATION_FAILED', 'interval');
      expectError(await get(`${path}?members=temperature&interval=1m&from=0&to=${30 * 86_400}`), 400, 'VALIDATION_FAILED', 'interval');
      expectError(await get(`${path}?members=temperature&agg=median`), 400, 'VALIDATION_FAILED', 'agg');
      expectError(await get(`/user/device/series/nothex?members=temperature`), 400, 'VALIDATION_FAILED');
    });

    it('needs credentials, and another account’s device is 404', async () => {
      expectError(await get(`/user/device/series/${sensor}?members=temperature`, null), 401, 'AUTH_REQUIRED');
      expectError(await get(`/user/device/series/${sensor}?members=temperature`, bob), 404, 'NOT_FOUND');
    });
  });

  describe('GET /user/overview', () => {
    it('counts the account’s devices, uplinks, images, pending commands, active alerts and integration health', async () => {
      await alice.client.commands.create(euis[0]!, { port: 2, payload_hex: '01' });
      // The sensor heard long ago whether or not the series tests ran before (an uplink older than theirs).
      await ingest([{ devEUI: sensor, port: 1, payload_hex: environment(20, 40, 1000), time_stamp_unix: T0 - 100 * HOUR }]);
      // An alert raised and one cleared; integrations enabled, failing and disabled (as the router and the dispatcher leave them).
      const ds = svc.app.get<DataSource>(getDataSourceToken());
      const [{ uid: device, owner_id: account }] = await ds.query(`SELECT uid, owner_id FROM devices WHERE eui = $1`, [euis[1]]);
      await ds.query(
        `INSERT INTO alerts (account_id, rule_name, rule_kind, device_id, message, details, raised_at, cleared_at)
         VALUES ($1, 'Too warm', 'threshold', $2, 'temperature 30 above 25', '{}', now() - interval '5 minutes', NULL),
                ($1, 'Too warm', 'threshold', $2, 'temperature 26 above 25', '{}', now() - interval '2 hours', now() - interval '90 minutes')`,
        [account, device],
      );
      await ds.query(
        `INSERT INTO integrations (account_id, name, kind, url, events, enabled, failing_since, disabled_reason)
         VALUES ($1, 'ok', 'webhook', 'https://example.org/a', '{uplink}', true, NULL, NULL),
                ($1, 'failing', 'webhook', 'https://example.org/b', '{uplink}', true, now(), NULL),
                ($1, 'off', 'webhook', 'https://example.org/c', '{uplink}', false, NULL, 'the receiver answered 410')`,
        [account],
      );
      const overview = await alice.client.user.overview();
      // Heard within the hour: two; heard long ago: two (one of them the sensor: silent); never: eight.
      expect(overview).toEqual({
        devices: { total: 12, online: 2, offline: 10, never_seen: 8, silent: 2 },
        uplinks_24h: 2,
        images: 0,
        commands_pending: 1,
        alerts_active: 1,
        integrations: { total: 3, failing: 1, disabled: 1 },
        online_threshold_s: 3_600,
      });
      expect(await bob.client.user.overview()).toEqual({
        devices: { total: 1, online: 0, offline: 1, never_seen: 1, silent: 0 },
        uplinks_24h: 0,
        images: 0,
        commands_pending: 0,
        alerts_active: 0,
        integrations: { total: 0, failing: 0, disabled: 0 },
        online_threshold_s: 3_600,
      });
      expectError(await get('/user/overview', null), 401, 'AUTH_REQUIRED');
    });
  });

  describe('GET /user/activity', () => {
    it('merges devices heard from, commands and alerts, newest first, the account’s only', async () => {
      const activity = await alice.client.user.activity();
      const times = activity.map((a) => a.at_unix);
      expect(times).toEqual([...times].sort((a, b) => b - a));
      // Each device heard from once (the three above and the sensor the series tests fed), the command above, the two alerts (the cleared one at its clearing).
      const seen = activity.filter((a) => a.kind === 'seen').map((a) => a.devEUI);
      expect(new Set(seen).size).toBe(seen.length);
      expect(seen.sort()).toEqual([euis[1], euis[2], euis[3], sensor].sort());
      expect(activity.find((a) => a.kind === 'command')).toMatchObject({
        devEUI: euis[0],
        state: expect.stringMatching(/^(Created|Scheduled)$/),
        text: 'port 2',
        label: 'bike 11',
      });
      expect(activity.filter((a) => a.kind === 'alert').map((a) => [a.state, a.text])).toEqual([
        ['active', 'temperature 30 above 25'],
        ['cleared', 'temperature 26 above 25'],
      ]);
      expect(activity.every((a) => (a.kind === 'seen' ? a.uid === null : Number.isInteger(a.uid)))).toBe(true);
      expect(await alice.client.user.activity(2)).toHaveLength(2);
      // Bob sees nothing of Alice’s.
      expect(await bob.client.user.activity()).toEqual([]);
    });

    it('refuses a bad limit, naming it, and needs credentials', async () => {
      expectError(await get('/user/activity?limit=0'), 400, 'VALIDATION_FAILED', 'limit');
      expectError(await get('/user/activity?limit=101'), 400, 'VALIDATION_FAILED', 'limit');
      expectError(await get('/user/activity?limit=many'), 400, 'VALIDATION_FAILED', 'limit');
      expectError(await get('/user/activity', null), 401, 'AUTH_REQUIRED');
    });
  });

  describe('GET /ui/config', () => {
    it('gives the console its map tiles and online threshold', async () => {
      expect(await alice.client.user.consoleConfig()).toEqual({
        map: { tile_url: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png', attribution: '© OpenStreetMap contributors', max_zoom: 19 },
        online_threshold_s: 3_600,
        version: expect.any(String),
      });
      expectError(await get('/ui/config', null), 401, 'AUTH_REQUIRED');
    });
  });
});
