import { ApiError, CLIENT_ROUTES, type DeviceTelemetryClient } from '@dts/client';
import { CHIRPSTACK_UPLINK_SAMPLE, type DeviceMetaWire, IMAGE_HASH_PATTERN, TOKEN_PATTERN, TTN_UPLINK_SAMPLE } from '@dts/domain';
import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { registerAccount } from './support/accounts';
import { apiFailure as failure } from './support/envelope';
import { startTestService, TEST_SECRETS, type TestService } from './support/harness';
import { lpp } from './support/payloads';
import { at } from './support/present';

/**
 * The typed client (libs/client) against the running service: its route table must be the
 * router's, and a whole account's day goes through it, failures included (ApiError with the
 * envelope's code and field).
 */

/**
 * Routes the client leaves out on purpose, with the reason. A route listed here must exist on the
 * server (a stale exclusion fails too).
 */
const EXCLUDED_ROUTES: Record<string, string> = {
  'GET /auth/oidc/{provider}/start': 'a browser navigation to the OpenID provider, not a call: it answers with a redirect',
  'GET /auth/oidc/{provider}/callback': 'where the OpenID provider sends the browser back: a navigation, not a call',
};

const ADMIN = { username: 'clientadmin', password: 'client admin password 1' };
const randomEui = () => randomBytes(8).toString('hex').toUpperCase();
const key = (r: { method: string; path: string }) => `${r.method} ${r.path}`;

const photo = () =>
  sharp({ create: { width: 64, height: 48, channels: 3, background: { r: randomBytes(1)[0], g: 120, b: 40 } } })
    .jpeg({ quality: 80 })
    .toBuffer();

describe('typed client', () => {
  let svc: TestService;

  beforeAll(async () => {
    svc = await startTestService({ env: { ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password, AUTH_RATE_LIMIT_PER_MINUTE: '1000' } });
  });
  afterAll(() => svc?.close());

  describe('route table', () => {
    it('lists each route once', () => {
      const keys = CLIENT_ROUTES.map(key);
      expect(new Set(keys).size).toBe(keys.length);
    });

    it('covers exactly the routes GET /routes lists, except those excluded with a reason', async () => {
      const server = (await svc.client().system.routes()).map(key);
      for (const excluded of Object.keys(EXCLUDED_ROUTES)) expect({ excluded, served: server.includes(excluded) }).toEqual({ excluded, served: true });
      expect(CLIENT_ROUTES.map(key).sort()).toEqual(server.filter((k) => !(k in EXCLUDED_ROUTES)).sort());
    });
  });

  describe('an account’s day through the client', () => {
    const eui = randomEui();
    const separated = eui.match(/../g)!.join('-').toLowerCase();
    const username = `cli_${randomBytes(3).toString('hex')}`;
    const password = `pw-${randomBytes(8).toString('hex')}`;
    let session: DeviceTelemetryClient;
    let alice: DeviceTelemetryClient;
    let bob: DeviceTelemetryClient;
    let bobName: string;
    let cayenne: number;
    let fenceUid: number;
    let imageHash: string;
    const now = Math.floor(Date.now() / 1000);

    beforeAll(async () => {
      const b = await registerAccount(svc, 'clibob');
      bobName = b.username;
      const bobSession = svc.client();
      await bobSession.auth.login({ username: b.username, password: b.password });
      bob = svc.client({ token: (await bobSession.tokens.createAndGet({ type: 'API' })).hash });
    });

    it('registers, logs in and keeps the session cookie', async () => {
      const anonymous = svc.client();
      const { id } = await anonymous.auth.register({ username, email: `${username}@example.org`, password });
      expect(Number.isInteger(id)).toBe(true);
      expect(await anonymous.user.state()).toEqual({ authenticated: false });
      expect(await anonymous.auth.check({ username, password })).toEqual({ valid: true });

      session = svc.client();
      expect(await session.auth.login({ username, password })).toEqual({ authenticated: true });
      expect(session.cookie).toMatch(new RegExp(`^${svc.config.session.cookieName}=`));
      expect(await session.user.me()).toMatchObject({ id, username, password: '********' });
      expect(await session.sessions.active()).toEqual({ active: true, expires_unix: expect.any(Number) });
      expect((await session.sessions.attributes()).username).toBe(username);
      expect((await session.sessions.cookie()).name).toBe(svc.config.session.cookieName);
    });

    it('lists the account’s sessions and ends them: another one, the others, its own', async () => {
      const laptop = svc.client();
      await laptop.auth.login({ username, password });
      const listed = await session.sessions.list();
      expect(listed.map((s) => s.current)).toEqual([true, false]);
      const other = listed[1]!;
      expect(await session.sessions.end(other.id)).toEqual({ id: other.id, ended: true, current: false });
      await expect(laptop.user.me()).rejects.toMatchObject({ status: 401 });
      await svc.client().auth.login({ username, password });
      expect(await session.sessions.endOthers()).toEqual({ ended: 1 });
      const phone = svc.client();
      await phone.auth.login({ username, password });
      const own = (await phone.sessions.list()).find((s) => s.current)!;
      expect(await phone.sessions.end(own.id)).toEqual({ id: own.id, ended: true, current: true });
      expect(phone.cookie).toBeUndefined();
      expect((await session.sessions.list()).map((s) => s.current)).toEqual([true]);
    });

    it('creates an app token and works with it', async () => {
      const token = await session.tokens.createAndGet({ type: 'API', name: 'client' });
      expect(token).toMatchObject({ type: 'app', name: 'client', until: null, enabled: 1 });
      expect(token.hash).toMatch(TOKEN_PATTERN);
      alice = svc.client({ token: token.hash });
      expect((await alice.user.me()).username).toBe(username);
      expect((await alice.tokens.list()).map((t) => t.uid)).toContain(token.uid);
    });

    it('registers a device (any EUI form), lists it and updates its metadata', async () => {
      const meta = await alice.devices.register(separated, { label: 'Tracker 1', folder: 'north' });
      expect(meta).toMatchObject({ devEUI: eui, label: 'Tracker 1', folder: 'north', username });
      expect(await alice.devices.list()).toEqual([eui]);
      expect(await alice.devices.autocomplete(eui.slice(0, 6))).toContain(eui);

      cayenne = (await alice.datamodel.decoders()).find((d) => d.name === 'Cayenne LPP')!.uid;
      const [updated] = await alice.meta.update(eui, { label: 'Tracker A', decoder_ref: cayenne, tags: ['a'] });
      expect(updated).toMatchObject<Partial<DeviceMetaWire>>({ devEUI: eui, label: 'Tracker A', decoder_ref: cayenne, tags: ['a'] });
      expect(await alice.meta.get(eui)).toEqual([updated]);
      expect((await alice.meta.all()).map((m) => m.devEUI)).toEqual([eui]);
    });

    it('ingests uplinks with the account token and with the platform secret', async () => {
      const first = await alice.ingest.rest([
        { devEUI: eui, port: 1, payload_hex: lpp({ t: 21.5, h: 40, volt: 3.61 }), time_stamp_unix: now - 120, fcnt: 1, geoloc_lat: 52.1, geoloc_lon: 5.1 },
        { devEUI: randomEui(), port: 1, payload_hex: '00' },
      ]);
      expect(first).toEqual({
        accepted: 1,
        duplicates: 0,
        rejected: [{ index: 1, devEUI: expect.any(String), code: 'NOT_FOUND', message: expect.any(String) }],
      });

      const platform = svc.client({ ingestSecret: TEST_SECRETS.INGEST_SECRET });
      const second = { devEUI: eui, port: 1, payload_hex: lpp({ t: 22, h: 41 }), time_stamp_unix: now - 60, fcnt: 2 };
      expect(await platform.ingest.rest(second)).toEqual({ accepted: 1, duplicates: 0, rejected: [] });
      expect(await platform.ingest.rest([second])).toEqual({ accepted: 0, duplicates: 1, rejected: [] });
    });

    it('reads the history as table, data and filtered data', async () => {
      const table = await alice.uplinks.table(eui);
      expect(table.map((r) => r.uplink.time_stamp_unix)).toEqual([now - 120, now - 60]);
      expect(table[0]).toMatchObject({ payload_valid: true, temperature: 21.5, humidity: 40, battery_voltage: 3.61, geoloc_LAT: 52.1, geoloc_LON: 5.1 });

      const latest = await alice.uplinks.data(eui, { order: 'desc', limit: 1 });
      expect(latest).toEqual([{ uid: table[1]!.uplink.uid, ts_unix: now - 60, time_stamp: expect.any(String), temperature: 22, humidity: 41, battery: null }]);

      const filtered = await alice.uplinks.dataFiltered(eui, ['temperature', 'humidity'], { from: now - 90 });
      expect(filtered.rows).toEqual([{ uid: table[1]!.uplink.uid, ts_unix: now - 60, ts_net_unix: now - 60, temperature: 22, humidity: 41 }]);
      expect(filtered.meta).toEqual({ data_types: expect.any(Array), cache_file_version: expect.any(Number) });
      expect(filtered.meta.data_types).toHaveLength(2);

      const csv = (await alice.uplinks.export('data', eui, 'csv', { filter: ['temperature'] })).trim().split(/\r?\n/);
      expect(csv).toHaveLength(3);
      expect(csv[0]!.split(',')).toEqual(expect.arrayContaining(['uid', 'temperature']));
      const ndjson = (await alice.uplinks.export('table', eui, 'ndjson', { order: 'desc' }))
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { uplink: { uid: number } });
      expect(ndjson.map((r) => r.uplink.uid)).toEqual([table[1]!.uplink.uid, table[0]!.uplink.uid]);

      expect(await alice.uplinks.test(eui)).toMatchObject({ decoder: 'Cayenne LPP', valid: true, payload_decoded: expect.objectContaining({}) });
      expect((await alice.devices.dataTypes()).map((t) => t.alias)).toEqual(expect.arrayContaining(['temperature', 'humidity']));
    });

    it('queues a command and lists it', async () => {
      expect(Array.isArray(await alice.commands.available(eui))).toBe(true);
      const command = await alice.commands.create(eui, { port: 10, payload_hex: 'CAFE', confirmed: true });
      expect(command).toMatchObject({ devEUI: eui, port: 10, confirmed: 1, status: 'Created', payload_hex: 'CAFE', payload_base64: 'yv4=' });
      expect((await alice.commands.list(eui)).map((c) => c.uid)).toEqual([command.uid]);
      expect((await alice.commands.list(eui, { status: ['Created', 'Scheduled', 'Sent'], limit: 1 })).map((c) => c.uid)).toEqual([command.uid]);
      expect(await alice.commands.list(eui, { status: ['Failed'] })).toEqual([]);
      expect((await alice.commands.list(eui, { status: [] })).map((c) => c.uid)).toEqual([command.uid]);
      expect(await alice.commands.list(eui, { before: command.uid })).toEqual([]);
    });

    it('keeps a fence', async () => {
      const geometry = {
        type: 'Polygon' as const,
        coordinates: [
          [
            [5, 52],
            [5.2, 52],
            [5.2, 52.2],
            [5, 52],
          ],
        ] as [number, number][][],
      };
      const fence = await alice.fences.create({ name: 'Farm', geometry });
      fenceUid = fence.uid;
      expect(fence).toEqual({ uid: expect.any(Number), name: 'Farm', geometry, created_unix: expect.any(Number) });
      expect(await alice.fences.get(fence.uid)).toEqual(fence);
      expect(await alice.fences.list()).toEqual([fence]);
    });

    it('decodes with an account codec, then goes back and removes it', async () => {
      const codec = await alice.codecs.create({
        name: `twice-${randomBytes(2).toString('hex')}`,
        script: 'function decodeUplink(i) { return { data: { first: i.bytes[0] * 2 } }; }',
      });
      expect(await alice.codecs.list()).toEqual([codec]);
      await alice.meta.update(eui, { decoder_ref: codec.uid });
      const tested = await alice.uplinks.test(eui);
      expect({ decoder: tested.decoder, first: tested.payload_decoded.first }).toEqual({ decoder: codec.name, first: 0x01 * 2 });
      await alice.meta.update(eui, { decoder_ref: cayenne });
      expect(await alice.codecs.remove(codec.uid)).toEqual({ uid: codec.uid, deleted: true });
      expect(await alice.codecs.list()).toEqual([]);
    });

    it('uploads a photo with FormData, annotates it and fetches the signed file', async () => {
      const bytes = await photo();
      const detail = await alice.images.upload(eui, bytes, { filename: 'trap.jpg', lat: 52.15, lon: 5.15, ts_photo_unix: now - 30 });
      imageHash = detail.hash;
      expect(imageHash).toMatch(IMAGE_HASH_PATTERN);
      expect(detail.meta).toMatchObject({ filename: 'trap.jpg', latitude: 52.15, longitude: 5.15, ts_photo_unix: now - 30, deleted: 0 });
      expect((await alice.images.upload(eui, new Uint8Array(bytes))).hash).toBe(imageHash);
      expect((await alice.images.list(eui)).map((i) => i.hash)).toEqual([imageHash]);

      const annotated = await alice.images.annotate(eui, imageHash, [{ bbox: [0.1, 0.2, 0.3, 0.4], score: 0.9, label: 'animal' }]);
      expect(JSON.parse(annotated.meta.annotations)).toEqual([expect.objectContaining({ bbox: [0.1, 0.2, 0.3, 0.4], score: 0.9, label: 'animal' })]);
      // The object form, as the console sends a person's labels: boxes and the image-level prediction, each saying who made it.
      const labelled = await alice.images.annotate(eui, imageHash, {
        annotations: [{ bbox: [0.1, 0.2, 0.3, 0.4], score: 1, label: 'badger', source: 'person' }],
        prediction: { label: 'badger', score: 1, source: 'person' },
      });
      expect(JSON.parse(labelled.meta.annotations)).toEqual([expect.objectContaining({ label: 'badger', source: 'person' })]);
      expect(labelled.meta.prediction).toEqual({ label: 'badger', score: 1, taxonomy: null, source: 'person' });
      expect(await alice.images.labels()).toEqual([{ label: 'badger', taxonomy: null, count: 2 }]);

      const file = await svc.client().images.file(annotated.meta.url);
      expect(file.contentType).toBe('image/jpeg');
      expect(Buffer.from(file.bytes).equals(bytes)).toBe(true);
      const forged = await failure(svc.client().images.file(annotated.meta.url.replace(/signature=[^&]+/, `signature=${'0'.repeat(64)}`)));
      expect(forged.status).toBe(403);
    });

    it('shares the device with another account and takes it back', async () => {
      const bobId = (await bob.user.me()).id;
      expect(await alice.devices.share(eui, bobName)).toEqual({ devEUI: eui, user_id: bobId, username: bobName });
      expect(await alice.devices.relation(eui, bobId)).toEqual({ result: 'shared' });
      expect(await bob.devices.list()).toContain(eui);
      expect(await alice.devices.unshare(eui, bobId)).toEqual({ devEUI: eui, user_id: bobId, removed: true });
      expect(await bob.devices.list()).not.toContain(eui);
    });

    it('hides everything of the account from another: 404 NOT_FOUND, nothing stored', async () => {
      for (const call of [
        bob.meta.get(eui),
        bob.uplinks.table(eui),
        bob.uplinks.data(eui),
        bob.commands.create(eui, { port: 1, payload_hex: '01' }),
        bob.images.get(eui, imageHash),
        bob.images.remove(eui, imageHash),
        bob.fences.get(fenceUid),
        bob.fences.remove(fenceUid),
        bob.devices.remove(eui),
      ]) {
        const error = await failure(call);
        expect({ status: error.status, code: error.code }).toEqual({ status: 404, code: 'NOT_FOUND' });
      }
      expect(await alice.commands.list(eui)).toHaveLength(1);
      expect((await alice.fences.list()).map((f) => f.uid)).toEqual([fenceUid]);
      expect((await alice.images.list(eui)).map((i) => i.hash)).toEqual([imageHash]);
      expect(await alice.devices.list()).toEqual([eui]);
    });

    it('turns failures into ApiError with the status, the error code and the field', async () => {
      const badEui = await failure(alice.devices.register('not-an-eui'));
      expect(badEui).toMatchObject({ name: 'ApiError', status: 400, code: 'VALIDATION_FAILED', field: 'eui' });
      expect(badEui.requestId).toEqual(expect.any(String));
      expect(badEui.message).toContain('POST /user/device/{eui}: 400 VALIDATION_FAILED (eui)');

      // Deliberately outside the types: what a JavaScript caller could send.
      const badFence = await failure(alice.fences.create({ name: '', geometry: { type: 'Point' } } as never));
      expect(badFence.status).toBe(400);
      expect(badFence.errors.map((e) => e.field).sort()).toEqual(['geometry', 'name']);
      expect(badFence.has('VALIDATION_FAILED', 'geometry')).toBe(true);
      expect((await alice.fences.list()).map((f) => f.uid)).toEqual([fenceUid]);

      expect(await failure(alice.devices.register(eui))).toMatchObject({ status: 409, code: 'DEVICE_EXISTS' });
      expect(await failure(alice.tokens.create({ type: 'master' }))).toMatchObject({ status: 403, code: 'FORBIDDEN', field: 'type' });
      expect(await failure(alice.cache.status())).toMatchObject({ status: 403, code: 'ADMIN_ONLY' });
      expect(await failure(svc.client().user.me())).toMatchObject({ status: 401, code: 'AUTH_REQUIRED' });
      expect(await failure(svc.client({ token: 'f'.repeat(64) }).devices.list())).toMatchObject({ status: 401, code: 'INVALID_TOKEN' });
      expect(await failure(svc.client({ ingestSecret: 'wrong-secret-0123456789' }).ingest.rest([]))).toMatchObject({ status: 401 });
    });

    it('lets an administrator read and invalidate the cache', async () => {
      const admin = svc.client();
      await admin.auth.login(ADMIN);
      const before = await admin.cache.entry(eui);
      expect(before).toMatchObject({ devEUI: eui, version: expect.any(Number), stale: expect.any(Boolean) });
      expect(await admin.cache.invalidate(eui)).toEqual({ devEUI: eui, version: expect.any(Number) });
      expect((await admin.cache.entry(eui)).version).toBeGreaterThan(before.version);
      expect(await admin.cache.status()).toEqual({
        devices: expect.any(Number),
        entries: expect.any(Number),
        bytes: expect.any(Number),
        stale: expect.any(Number),
      });
      const info = await admin.admin.info();
      expect(info).toMatchObject({ version: expect.any(String), accounts: expect.any(Number), devices: expect.any(Number), queues: expect.any(Object) });
      expect(info.accounts).toBeGreaterThanOrEqual(3);
      expect(await failure(alice.admin.info())).toMatchObject({ status: 403, code: 'ADMIN_ONLY' });
    });

    it('reads the datamodel and system routes', async () => {
      const model = await alice.datamodel.all();
      expect(model.decoders.map((d) => d.uid)).toContain(cayenne);
      expect(await alice.datamodel.networks()).toEqual(model.networks);
      expect((await alice.datamodel.network(1)).uid).toBe(1);
      expect(await alice.datamodel.networkTypes()).toEqual(model.network_types);
      expect(await alice.datamodel.dataTypes()).toEqual(model.data_types);
      expect(await alice.datamodel.icons()).toEqual(model.icons);
      expect(await alice.datamodel.deviceTypes()).toEqual(model.device_types);
      const temperature = model.data_types.find((t) => t.alias === 'temperature')!;
      expect(await alice.datamodel.dataType(temperature.uid)).toEqual(expect.any(String));
      expect((await svc.client().system.version()).api_version).toBe('1');
      expect((await alice.auth.echo({ x: '1' })).query).toEqual({ x: '1' });
      expect((await svc.client().system.live()).status).toBe('ok');
      expect(await svc.client().system.metrics()).toContain('# TYPE');
      expect(await alice.system.feedback({ message: 'The client works.', category: 'other' })).toEqual({ uid: expect.any(Number) });
    });

    it('follows the device live (Server-Sent Events) and closes the stream when the loop ends', async () => {
      const last = at(await alice.uplinks.table(eui, { order: 'desc', limit: 1 }), 0, 'uplink');
      const events = alice.uplinks.live(eui, { lastEventId: last.uplink.uid })[Symbol.asyncIterator]();
      const first = events.next();
      await alice.ingest.rest({ devEUI: eui, port: 1, payload_hex: lpp({ t: 23 }), time_stamp_unix: now - 10, fcnt: 3 });
      const { value } = await first;
      expect(value).toMatchObject({ event: 'uplink', data: { temperature: 23, uplink: { devEUI: eui } } });
      if (value?.event !== 'uplink') throw new Error('the first event is not an uplink');
      expect(Number(value.id)).toBe(value.data.uplink.uid);
      expect(await events.return?.()).toEqual({ done: true, value: undefined });
      expect(await failure(bob.uplinks.live(eui)[Symbol.asyncIterator]().next())).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    });

    it('ends the session on logout and forgets the cookie', async () => {
      expect(await session.auth.logout()).toEqual({ authenticated: false });
      expect(session.cookie).toBeUndefined();
      expect(await failure(session.user.me())).toMatchObject({ status: 401, code: 'AUTH_REQUIRED' });
      expect((await alice.user.me()).username).toBe(username);
    });
  });

  describe('the other routes', () => {
    const eui = randomEui();
    let session: DeviceTelemetryClient;
    let carol: DeviceTelemetryClient;
    let account: Awaited<ReturnType<typeof registerAccount>>;

    beforeAll(async () => {
      account = await registerAccount(svc, 'clicarol');
      session = svc.client();
      await session.auth.login({ username: account.username, password: account.password });
      carol = svc.client({ token: (await session.tokens.createAndGet({ type: 'API' })).hash });
      await carol.devices.register(eui);
    });

    it('deletes a token, which stops working', async () => {
      const spare = await session.tokens.createAndGet({ type: 'API' });
      expect(await session.tokens.delete(spare.uid)).toBe(spare.uid);
      expect(await failure(svc.client({ token: spare.hash }).user.me())).toMatchObject({ status: 401, code: 'INVALID_TOKEN' });
    });

    it('keeps an own network without showing its key', async () => {
      const network = await carol.networks.create({
        name: 'Our ChirpStack',
        adapter: 'chirpstack',
        base_url: 'https://8.8.4.4:8080',
        api_key: 'secret-key',
      });
      expect(network).toEqual({
        uid: expect.any(Number),
        name: 'Our ChirpStack',
        adapter: 'chirpstack',
        base_url: expect.stringContaining('8.8.4.4'),
        application_id: null,
        webhook_id: null,
        mapping: null,
        created_unix: expect.any(Number),
      });
      expect(await carol.networks.list()).toEqual([network]);
      expect(await carol.networks.remove(network.uid)).toEqual({ uid: network.uid, deleted: true });
      expect(await carol.networks.list()).toEqual([]);
    });

    it('takes The Things Stack and ChirpStack messages and an ingested photo', async () => {
      const ttn = { ...TTN_UPLINK_SAMPLE, end_device_ids: { ...TTN_UPLINK_SAMPLE.end_device_ids, dev_eui: eui } };
      expect(await carol.ingest.ttn(ttn)).toEqual({ accepted: 1, duplicates: 0, rejected: [] });
      const chirpstack = { ...CHIRPSTACK_UPLINK_SAMPLE, deviceInfo: { ...CHIRPSTACK_UPLINK_SAMPLE.deviceInfo, devEui: eui } };
      expect(await carol.ingest.chirpstack(chirpstack)).toEqual({ accepted: 1, duplicates: 0, rejected: [] });
      expect(await carol.uplinks.table(eui)).toHaveLength(2);

      const platform = svc.client({ ingestSecret: TEST_SECRETS.INGEST_SECRET });
      const image = await platform.ingest.image(await photo(), { devEUI: eui, filename: 'ingested.jpg' });
      expect(image.meta.filename).toBe('ingested.jpg');
      expect(await carol.images.remove(eui, image.hash)).toEqual({ hash: image.hash, deleted: true });
      expect(await carol.images.list(eui)).toEqual([]);
    });

    it('takes HTTP JSON uplinks on the global network and on the account’s own', async () => {
      const own = await carol.networks.create({
        name: 'Carol’s LNS',
        adapter: 'http-json',
        mapping: { devEUI: 'dev.eui', payload: 'bytes', payload_encoding: 'base64' },
      });
      expect(own).toMatchObject({
        adapter: 'http-json',
        base_url: null,
        mapping: { devEUI: 'dev.eui', port: 'port', payload: 'bytes', payload_encoding: 'base64' },
      });
      expect(await carol.ingest.http(own.uid, { dev: { eui }, port: 1, bytes: 'AWcBDg==', id: 'client-http-1' })).toEqual({
        accepted: 1,
        duplicates: 0,
        rejected: [],
      });
      expect(await carol.ingest.http(5, { devEUI: eui, port: 1, payload: '0167010E', id: 'client-http-2' })).toEqual({
        accepted: 1,
        duplicates: 0,
        rejected: [],
      });
      expect(await failure(carol.ingest.http(2, {}))).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    });

    it('cancels a command while it is still Created, or says why not', async () => {
      const command = await carol.commands.create(eui, { port: 2, payload_ASCII: 'hi' });
      // The in-process worker may hand the command to the simulated network first: both answers are documented ones.
      const outcome = await carol.commands.cancel(eui, command.uid).then(
        (r) => r.status,
        (e: unknown) => (e instanceof ApiError ? e.code : e),
      );
      expect(['Cancelled', 'COMMAND_NOT_CANCELLABLE']).toContain(outcome);
    });

    it('reads datamodel details, readiness, and invalidates every cache entry as admin', async () => {
      const cayenne = (await carol.datamodel.decoders()).find((d) => d.name === 'Cayenne LPP')!;
      expect(await carol.datamodel.decoder(cayenne.uid)).toEqual({ device: expect.any(String), manufacturer: expect.any(String) });
      const type = at(await carol.datamodel.networkTypes(), 0, 'network type');
      expect(Array.isArray(await carol.datamodel.networksByType(type.uid))).toBe(true);
      expect((await svc.client().system.ready()).status).toBe('ok');
      const admin = svc.client();
      await admin.auth.login(ADMIN);
      expect(await admin.cache.invalidateAll()).toEqual({ devices: expect.any(Number) });
    });

    it('changes the password, asks for a reset, removes the device and deletes the account', async () => {
      const next = `pw-${randomBytes(8).toString('hex')}`;
      expect(await session.auth.changePassword({ current_password: account.password, new_password: next })).toHaveLength(1);
      expect(await svc.client().auth.check({ username: account.username, password: next })).toEqual({ valid: true });
      expect(await svc.client().auth.restore({ email: account.email })).toHaveLength(1);
      expect(await carol.devices.remove(eui)).toEqual({ devEUI: eui, removed: true });
      expect(await failure(session.auth.deleteAccount('wrong password 123'))).toMatchObject({ status: 403, code: 'WRONG_PASSWORD' });
      expect(await session.auth.deleteAccount(next)).toEqual({ id: account.id, deleted: true });
      expect(await failure(carol.user.me())).toMatchObject({ status: 401 });
    });
  });

  it('works in an organisation: creates one, acts in it with `organisation`, and manages its members, invitations and audit log', async () => {
    const owner = svc.client();
    const o = await registerAccount(svc, 'cliorg');
    await owner.auth.login({ username: o.username, password: o.password });
    const org = await owner.organisations.create({ name: `cli-org-${randomBytes(3).toString('hex')}` });
    expect(await owner.organisations.list()).toEqual([org]);
    expect(await owner.organisations.update(org.id, { fullname: 'Client team' })).toMatchObject({ fullname: 'Client team' });
    const inOrg = owner.with({ organisation: org.name });
    const eui = randomEui();
    await inOrg.devices.register(eui, { label: 'org device' });
    expect(await inOrg.devices.list()).toEqual([eui]);
    expect(await owner.devices.list()).toEqual([]);
    const invitation = await owner.organisations.invite(org.id, { email: 'someone@example.org', role: 'viewer' });
    expect(await owner.organisations.invitations(org.id)).toEqual([invitation]);
    expect(await owner.organisations.withdrawInvitation(org.id, invitation.uid)).toEqual({ uid: invitation.uid, withdrawn: true });
    expect(await failure(owner.organisations.addMember(org.id, { username: o.username, role: 'viewer' }))).toMatchObject({ status: 400, field: 'username' });
    expect((await owner.organisations.members(org.id)).map((m) => m.role)).toEqual(['owner']);
    expect(await failure(owner.organisations.updateMember(org.id, o.id, { role: 'viewer' }))).toMatchObject({ status: 409, code: 'LAST_OWNER' });
    expect(await failure(owner.organisations.removeMember(org.id, o.id))).toMatchObject({ status: 409, code: 'LAST_OWNER' });
    expect(await owner.invitations.list()).toEqual([]);
    expect(await failure(owner.invitations.accept(1))).toMatchObject({ status: 404 });
    expect(await failure(owner.invitations.decline(1))).toMatchObject({ status: 404 });
    expect((await owner.organisations.audit(org.id, { action: '/user/device/' })).events.map((e) => e.target)).toEqual([{ eui }]);
    expect(await owner.organisations.delete(org.id, { devices: 'hand_over', to: o.username })).toMatchObject({ devices_handed_over: 1 });
    expect(await owner.devices.list()).toEqual([eui]);
    expect(await failure(owner.organisations.get(org.id))).toMatchObject({ status: 404 });
  });
});
