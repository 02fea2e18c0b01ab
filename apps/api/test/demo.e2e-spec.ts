import type { CommandWire, DeviceMetaWire, FenceWire, ImageDetailWire, ImageListEntryWire } from '@dts/domain';
import { DemoLiveService } from '../src/modules/demo/demo-live.service';
import { DemoSeeder, type DemoSummary } from '../src/modules/demo/demo.seeder';
import { accountWithCredentials, bearer } from './support/accounts';
import { expectError, expectSuccess } from './support/envelope';
import { eventually } from '@dts/platform';
import { startTestService, type TestService } from './support/harness';

/*
 * DEMO=1 (issue 7): the demo account with trackers moving round a route, environment sensors
 * following the day, a camera trap with annotated photos, commands in several states and a fence,
 * all made through the service's own paths; printed credentials and examples that work; a second
 * start on the same database adds nothing.
 */

const EUI = { bike: '70B3D57ED0DE0001', cart: '70B3D57ED0DE0002', meadow: '70B3D57ED0DE0011', pond: '70B3D57ED0DE0012', camera: '70B3D57ED0DE0021' };
/** The demo's clock (Amsterdam standard time). */
const UTC_OFFSET_HOURS = 1;

type Row = { uid: number; ts_unix: number; [alias: string]: unknown };

function metres(a: [number, number], b: [number, number]): number {
  const rad = Math.PI / 180;
  return Math.hypot((b[1] - a[1]) * rad * Math.cos(a[0] * rad), (b[0] - a[0]) * rad) * 6_371_000;
}

const localHour = (tsUnix: number) => new Date((tsUnix + UTC_OFFSET_HOURS * 3600) * 1000).getUTCHours();
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

/** Starts a service with DEMO=1 and keeps what it printed. */
async function startDemo(sameDatabaseAs?: TestService): Promise<{ svc: TestService; printed: string; summary: DemoSummary }> {
  let printed = '';
  const spy = jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    printed += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString();
    return true;
  });
  try {
    const svc = await startTestService({ env: { DEMO: '1' }, sameDatabaseAs });
    // The live traffic's first reports come after 15 s: stopped here, the counts below are the seeding's.
    svc.app.get(DemoLiveService).stop();
    return { svc, printed, summary: svc.app.get(DemoSeeder).summary! };
  } finally {
    spy.mockRestore();
  }
}

describe('DEMO=1', () => {
  let svc: TestService;
  let printed: string;
  let token: string;
  const get = (path: string) =>
    svc
      .http()
      .get(path)
      .set(...bearer(token));

  beforeAll(async () => {
    ({ svc, printed } = await startDemo());
    token = /token\s+([0-9a-f]{64})/.exec(printed)?.[1] ?? '';
  }, 120_000);
  afterAll(() => svc?.close());

  it('prints the login, a password and a token that work', async () => {
    expect(printed).toMatch(/username\s+demo\n/);
    const password = /password\s+(demo-[0-9a-f]{12})\n/.exec(printed)?.[1];
    expect(password).toBeDefined();
    expect(token).toMatch(/^[0-9a-f]{64}$/);
    expect(expectSuccess<{ username: string }>(await get('/user'))).toMatchObject({ username: 'demo' });
    await svc.http().post('/auth/login').send({ username: 'demo', password }).expect(200);
    expectError(await svc.http().get('/user/device/meta/all'), 401, 'AUTH_REQUIRED');
  });

  it('prints 3 to 4 curl examples with the token and demo EUIs that answer success as printed', async () => {
    const lines = printed.split('\n').filter((l) => l.trim().startsWith('curl '));
    expect(lines.length).toBeGreaterThanOrEqual(3);
    expect(lines.length).toBeLessThanOrEqual(4);
    for (const line of lines) {
      const [, header, url] = /^\s*curl -s -H "([^"]+)" "([^"]+)"$/.exec(line) ?? [];
      expect(header).toBe(`Authorization: Bearer ${token}`);
      expect(url!.startsWith(svc.config.publicBaseUrl)).toBe(true);
      const path = url!.slice(svc.config.publicBaseUrl.length);
      const res = await svc.http().get(path).set('Authorization', `Bearer ${token}`);
      expect({ path, status: res.status, success: res.body.success }).toEqual({ path, status: 200, success: true });
    }
    expect(lines.join('\n')).toContain(EUI.bike);
    expect(lines.join('\n')).toContain(EUI.meadow);
  });

  it('registers the trackers, sensors and camera trap with their families and places', async () => {
    const meta = expectSuccess<DeviceMetaWire[]>(await get('/user/device/meta/all'));
    const byEui = new Map(meta.map((m) => [m.devEUI, m]));
    expect([...byEui.keys()].sort()).toEqual(Object.values(EUI).sort());
    // type_ref: 1 tracker, 2 camera, 3 sensor; decoder_ref: 2 Cayenne LPP, 3 DT Tracker, 4 DT Environment, 5 DT Camera Trap.
    expect(byEui.get(EUI.bike)).toMatchObject({ type_ref: 1, decoder_ref: 3, folder: 'Vondelpark' });
    expect(byEui.get(EUI.cart)).toMatchObject({ type_ref: 1, decoder_ref: 2 });
    expect(byEui.get(EUI.meadow)).toMatchObject({ type_ref: 3, decoder_ref: 4, installation_lat: expect.any(Number), installation_lon: expect.any(Number) });
    expect(byEui.get(EUI.pond)).toMatchObject({ type_ref: 3, decoder_ref: 2 });
    expect(byEui.get(EUI.camera)).toMatchObject({ type_ref: 2, decoder_ref: 5 });
    // The uplinks updated the metadata as real traffic does: last position, battery, activity.
    const bike = byEui.get(EUI.bike)!;
    expect(bike).toMatchObject({ lat: expect.any(Number), lon: expect.any(Number), battery_voltage: expect.any(Number), firmware_version: '1.4.212' });
    expect(Date.now() / 1000 - (bike.ts_activity_last_unix as number)).toBeLessThan(3600);
    expect(byEui.get(EUI.meadow)!.ts_data_first_unix!).toBeLessThan(Date.now() / 1000 - 2.9 * 86_400);
  });

  it('has the trackers going round the fenced route every 10 minutes over 2 days, battery falling', async () => {
    const [fence] = expectSuccess<[FenceWire]>(await get('/user/fence'));
    expect(fence.name).toBe('Vondelpark');
    const ring = fence.geometry.coordinates[0]!;
    const [west, east] = [Math.min(...ring.map((p) => p[0]!)), Math.max(...ring.map((p) => p[0]!))];
    const [south, north] = [Math.min(...ring.map((p) => p[1]!)), Math.max(...ring.map((p) => p[1]!))];
    for (const eui of [EUI.bike, EUI.cart]) {
      const rows = expectSuccess<Row[]>(await get(`/user/device/data/${eui}?filter=LAT,LON`));
      expect(rows).toHaveLength(288);
      expect(rows[1]!.ts_unix - rows[0]!.ts_unix).toBe(600);
      const points = rows.map((r) => [r.LAT, r.LON] as [number, number]);
      for (const [lat, lon] of points) {
        expect(lat).toBeGreaterThan(south);
        expect(lat).toBeLessThan(north);
        expect(lon).toBeGreaterThan(west);
        expect(lon).toBeLessThan(east);
      }
      const steps = points.slice(1).map((p, i) => metres(points[i]!, p));
      // Moving by day (hundreds of metres per report), resting by night.
      expect(steps.filter((s) => s > 100).length).toBeGreaterThan(60);
      // The track spans the park, wherever in the loop the window happens to start.
      expect(Math.max(...points.flatMap((a) => points.map((b) => metres(a, b))))).toBeGreaterThan(1000);
    }
    const battery = expectSuccess<Row[]>(await get(`/user/device/data/${EUI.bike}?filter=battery_voltage`)).map((r) => r.battery_voltage as number);
    expect(battery.at(-1)!).toBeLessThan(battery[0]! - 0.05);
  });

  it('has the environment sensors warmer and drier in the afternoon than at night, every 15 minutes over 3 days', async () => {
    for (const eui of [EUI.meadow, EUI.pond]) {
      const rows = expectSuccess<Row[]>(await get(`/user/device/data/${eui}?filter=temperature,humidity`));
      expect(rows).toHaveLength(288);
      expect(rows[1]!.ts_unix - rows[0]!.ts_unix).toBe(900);
      const at = (hours: number[], k: string) => mean(rows.filter((r) => hours.includes(localHour(r.ts_unix))).map((r) => r[k] as number));
      expect(at([14, 15, 16], 'temperature')).toBeGreaterThan(at([2, 3, 4], 'temperature') + 4);
      expect(at([14, 15, 16], 'humidity')).toBeLessThan(at([2, 3, 4], 'humidity') - 8);
    }
    // Decoded from the family's bytes, stored raw as a network delivered them.
    const [first] = expectSuccess<[{ payload_hex: string; payload_valid?: unknown }]>(await get(`/user/device/table/${EUI.meadow}?limit=1`));
    expect(first.payload_hex).toMatch(/^[0-9A-Fa-f]{24}$/);
  });

  it('has the camera trap’s photos thumbnailed by the worker and annotated (status 5)', async () => {
    let images: ImageListEntryWire[] = [];
    await eventually(
      async () => {
        images = expectSuccess<ImageListEntryWire[]>(await get(`/user/device/image/${EUI.camera}`));
        return !images.some((i) => i.status !== 5);
      },
      { what: 'every photo annotated', timeoutMs: 60_000, intervalMs: 200 },
    ).catch(() => undefined); // the expectations say what they are
    expect(images).toHaveLength(4);
    expect(images.map((i) => i.status)).toEqual([5, 5, 5, 5]);
    expect(new Set(images.flatMap((i) => i.annotations.map((a) => a.label)))).toEqual(new Set(['red fox', 'roe deer', 'European badger']));
    for (const image of images) {
      expect(image.ts_photo_unix).toBeLessThan(Date.now() / 1000);
      expect(image.ts_photo_unix).toBeGreaterThan(Date.now() / 1000 - 3 * 86_400);
      expect(image.annotations[0]!.taxonomy).toMatchObject({ class: 'mammalia', genus: expect.stringMatching(/\S/) });
      const detail = expectSuccess<ImageDetailWire>(await get(`/user/device/image/${EUI.camera}/${image.hash}`));
      expect(
        Buffer.from(detail.images.thumb ?? '', 'base64')
          .subarray(0, 2)
          .toString('hex'),
      ).toBe('ffd8');
      const file = await fetch(detail.meta.url.replace(svc.config.publicBaseUrl, svc.url));
      expect(file.headers.get('content-type')).toBe('image/jpeg');
    }
    // The camera's status uplinks, decoded by its family.
    const status = expectSuccess<Row[]>(await get(`/user/device/data/${EUI.camera}?filter=battery_percent`));
    expect(status.length).toBeGreaterThanOrEqual(12);
  });

  it('has commands in at least three states: dispatched by the worker, and moved on by network events', async () => {
    const list = async () =>
      (await Promise.all([EUI.bike, EUI.meadow, EUI.camera].map(async (eui) => expectSuccess<CommandWire[]>(await get(`/user/device/command/${eui}`))))).flat();
    let commands: CommandWire[] = [];
    await eventually(
      async () => {
        commands = await list();
        return !commands.some((c) => c.status === 'Created');
      },
      { what: 'every command dispatched', timeoutMs: 30_000, intervalMs: 200 },
    ).catch(() => undefined); // the expectations say what they are
    const statuses = new Set(commands.map((c) => c.status));
    expect(statuses).toEqual(new Set(['Scheduled', 'Sent', 'Acknowledged', 'Failed']));
    expect(commands.find((c) => c.status === 'Failed')?.reason).toMatch(/\S/);
  });

  it('shows none of it to another account', async () => {
    const other = await accountWithCredentials(svc, 'stranger');
    expectError(
      await svc
        .http()
        .get(`/user/device/data/${EUI.bike}`)
        .set(...bearer(other.appToken)),
      404,
      'NOT_FOUND',
    );
    expectError(
      await svc
        .http()
        .get(`/user/device/image/${EUI.camera}`)
        .set(...bearer(other.appToken)),
      404,
      'NOT_FOUND',
    );
    expect(
      expectSuccess<string[]>(
        await svc
          .http()
          .get('/user/device')
          .set(...bearer(other.appToken)),
      ),
    ).toEqual([]);
  });

  it('adds nothing on a second start with the same database and prints the same token', async () => {
    const counts = async () => ({
      devices: expectSuccess<string[]>(await get('/user/device')).length,
      uplinks: expectSuccess<Row[]>(await get(`/user/device/data/${EUI.meadow}`)).length,
      images: expectSuccess<ImageListEntryWire[]>(await get(`/user/device/image/${EUI.camera}`)).length,
      commands: expectSuccess<CommandWire[]>(await get(`/user/device/command/${EUI.bike}`)).length,
      fences: expectSuccess<FenceWire[]>(await get('/user/fence')).length,
      tokens: expectSuccess<unknown[]>(await get('/user/token')).length,
    });
    const before = await counts();
    expect(before).toEqual({ devices: 5, uplinks: 288, images: 4, commands: 2, fences: 1, tokens: 1 });
    const again = await startDemo(svc);
    try {
      expect(again.summary).toMatchObject({ username: 'demo', password: null, token, result: { seeded: [], uplinks: 0, images: 0, commands: 0 } });
      expect(again.printed).toContain(`token     ${token}`);
      expect(again.printed).not.toMatch(/password\s+demo-/);
    } finally {
      await again.svc.close();
    }
    expect(await counts()).toEqual(before);
  });

  it('keeps the devices reporting and taking commands while it runs (the console shows them live)', async () => {
    const before = Math.floor(Date.now() / 1000);
    const counts = async () => ({
      bike: expectSuccess<Row[]>(await get(`/user/device/data/${EUI.bike}?filter=LAT,LON&from=${before}`)),
      meadow: expectSuccess<Row[]>(await get(`/user/device/data/${EUI.meadow}?filter=temperature,humidity&from=${before}`)),
    });
    const live = svc.app.get(DemoLiveService);
    await live.pulse();
    await live.pulse();
    const { bike, meadow } = await counts();
    expect(bike).toHaveLength(2);
    expect(meadow).toHaveLength(2);
    expect(metres([bike[0]!.LAT as number, bike[0]!.LON as number], [52.358, 4.868])).toBeLessThan(1500);
    expect(meadow[0]!.temperature).toEqual(expect.any(Number));
    // The position request moves on by the network's events: Sent after 5 s, Acknowledged after 10.
    const newest = () => get(`/user/device/command/${EUI.bike}`).then((r) => expectSuccess<CommandWire[]>(r)[0]!);
    expect((await newest()).payload_hex).toBe('02');
    // Real time by nature: the demo network moves it on its own clock (5 s, 10 s).
    await eventually(async () => expect((await newest()).status).toBe('Acknowledged'), {
      what: 'the position request acknowledged',
      timeoutMs: 20_000,
      intervalMs: 200,
    });
  }, 60_000);
});
