import { getDataSourceToken } from '@nestjs/typeorm';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DataSource } from 'typeorm';
import { accountWithCredentials, bearer, tokenClient } from './support/accounts';
import { expectError, expectSuccess } from './support/envelope';
import { eventually } from '@dts/platform';
import { startTestService, TEST_SECRETS, type TestService } from './support/harness';
import { commandDispatchEnded } from './support/queues';

/*
 * An account's own networks (POST/GET/DELETE /user/network): what a device's downlinks go through.
 * The API key is never shown again; another account neither sees nor uses nor deletes them; and the
 * base_url may not point at loopback, link-local or private addresses (the default configuration,
 * without OUTBOUND_ALLOW_PRIVATE), neither when configured nor when a command is handed over.
 */

type Caller = Awaited<ReturnType<typeof accountWithCredentials>>;

interface Network {
  uid: number;
  name: string;
  adapter: 'chirpstack' | 'ttn' | 'http-json';
  base_url: string | null;
  application_id: string | null;
  webhook_id: string | null;
  created_unix: number;
}

const newEui = () => randomBytes(8).toString('hex').toUpperCase();
/** Public addresses (TEST-NET-3): the URL check needs no DNS for them, and nothing is ever sent there. */
const PUBLIC = 'https://8.8.4.4:8080';
const KEY = 'secret-api-key-do-not-show-0123456789';

describe('/user/network', () => {
  let svc: TestService;
  let db: DataSource;
  let alice: Caller;
  let bob: Caller;

  const as = (who: Caller) => tokenClient(svc, who.appToken);
  const networks = async (who: Caller) => expectSuccess<Network[]>(await as(who).get('/user/network'));
  const create = async (who: Caller, body: object = {}) =>
    expectSuccess<Network>(
      await as(who).post('/user/network', { name: 'Our ChirpStack', adapter: 'chirpstack', base_url: PUBLIC, api_key: KEY, ...body }),
      201,
    );

  beforeAll(async () => {
    svc = await startTestService();
    db = svc.app.get<DataSource>(getDataSourceToken());
    [alice, bob] = await Promise.all([accountWithCredentials(svc, 'alice'), accountWithCredentials(svc, 'bob')]);
  });
  afterAll(() => svc?.close());

  describe('create, list, delete', () => {
    it('creates a ChirpStack and a The Things Stack network, lists them, and never returns the key', async () => {
      const cs = await as(alice).post('/user/network', { name: 'Our ChirpStack', adapter: 'chirpstack', base_url: `${PUBLIC}/`, api_key: KEY });
      const chirpstack = expectSuccess<Network>(cs, 201);
      expect(chirpstack).toEqual({
        uid: expect.any(Number),
        name: 'Our ChirpStack',
        adapter: 'chirpstack',
        base_url: expect.stringMatching(/^https:\/\/8\.8\.4\.4:8080\/?$/),
        application_id: null,
        webhook_id: null,
        mapping: null,
        created_unix: expect.any(Number),
      });
      expect(Math.abs(chirpstack.created_unix - Date.now() / 1000)).toBeLessThan(60);
      expect(cs.text).not.toContain(KEY);

      const tts = await as(alice).post('/user/network', {
        name: 'Our TTS',
        adapter: 'ttn',
        base_url: 'https://8.8.8.8',
        api_key: `NNSXS.${KEY}`,
        application_id: 'my-app',
        webhook_id: 'dts',
      });
      expect(expectSuccess<Network>(tts, 201)).toMatchObject({ name: 'Our TTS', adapter: 'ttn', application_id: 'my-app', webhook_id: 'dts' });
      expect(tts.text).not.toContain(KEY);
      const ttsUid = (tts.body.data as Network).uid;

      const listed = await as(alice).get('/user/network');
      expect(expectSuccess<Network[]>(listed).map((n) => n.uid)).toEqual(expect.arrayContaining([chirpstack.uid, ttsUid]));
      expect(listed.text).not.toContain(KEY);
      for (const n of listed.body.data as Record<string, unknown>[]) expect(Object.keys(n)).not.toContain('api_key');

      // The datamodel shows them to their account, next to the global networks.
      const all = expectSuccess<{ uid: number }[]>(await as(alice).get('/datamodel/network')).map((n) => n.uid);
      expect(all).toEqual(expect.arrayContaining([1, 2, 3, 4, chirpstack.uid, ttsUid]));
      const detail = await as(alice).get(`/datamodel/network/${chirpstack.uid}`);
      expect(expectSuccess<{ uid: number; name: string }>(detail)).toMatchObject({ uid: chirpstack.uid, name: 'Our ChirpStack' });
      expect(detail.text).not.toContain(KEY);
    });

    it('deletes a network: gone from the list, its devices left without a network, a second delete is 404', async () => {
      const network = await create(alice, { name: 'to delete' });
      const eui = newEui();
      await as(alice).post(`/user/device/${eui}`, { network_ref: network.uid }).expect(201);
      expect(expectSuccess(await as(alice).delete(`/user/network/${network.uid}`))).toEqual({ uid: network.uid, deleted: true });
      expect((await networks(alice)).map((n) => n.uid)).not.toContain(network.uid);
      expectError(await as(alice).get(`/datamodel/network/${network.uid}`), 404, 'NOT_FOUND');
      const [meta] = expectSuccess<[{ network_ref: number | null }]>(await as(alice).get(`/user/device/meta/${eui}`));
      expect(meta.network_ref).toBeNull();
      expectError(await as(alice).post(`/user/device/command/${eui}`, { port: 1, payload_hex: '01' }), 400, 'VALIDATION_FAILED');
      expect(expectSuccess<unknown[]>(await as(alice).get(`/user/device/command/${eui}`))).toEqual([]);
      expectError(await as(alice).delete(`/user/network/${network.uid}`), 404, 'NOT_FOUND');
      expectError(await as(alice).delete('/user/network/abc'), 400, 'VALIDATION_FAILED', 'uid');
      expectError(await as(alice).delete('/user/network/1'), 404, 'NOT_FOUND');
    });

    it.each([
      ['ttn without application_id', { adapter: 'ttn', webhook_id: 'dts' }, 'application_id'],
      ['ttn without webhook_id', { adapter: 'ttn', application_id: 'my-app' }, 'webhook_id'],
      ['an application_id that is no TTS id', { adapter: 'ttn', application_id: 'My App!', webhook_id: 'dts' }, 'application_id'],
      ['adapter simulated', { adapter: 'simulated' }, 'adapter'],
      ['adapter rest', { adapter: 'rest' }, 'adapter'],
      ['no adapter', { adapter: undefined }, 'adapter'],
      ['an empty name', { name: '' }, 'name'],
      ['no name', { name: undefined }, 'name'],
      ['a name over 100 characters', { name: 'x'.repeat(101) }, 'name'],
      ['an empty api_key', { api_key: '' }, 'api_key'],
      ['no api_key', { api_key: undefined }, 'api_key'],
      ['an api_key that is no string', { api_key: 42 }, 'api_key'],
      ['no base_url', { base_url: undefined }, 'base_url'],
      ['a base_url that is no URL', { base_url: 'not a url' }, 'base_url'],
      ['a base_url that is no string', { base_url: 5 }, 'base_url'],
      ['an unknown member', { region: 'eu1' }, 'region'],
      ['account_id', { account_id: 1 }, 'account_id'],
    ])('refuses %s with 400 naming the field, storing nothing', async (_what, change: Record<string, unknown>, field) => {
      const before = await networks(alice);
      const body: Record<string, unknown> = { name: 'bad', adapter: 'chirpstack', base_url: PUBLIC, api_key: KEY, ...change };
      for (const k of Object.keys(body)) if (body[k] === undefined) delete body[k];
      expectError(await as(alice).post('/user/network', body), 400, 'VALIDATION_FAILED', field);
      expect(await networks(alice)).toEqual(before);
    });

    it('needs credentials', async () => {
      expectError(await svc.http().get('/user/network'), 401, 'AUTH_REQUIRED');
      expectError(await svc.http().post('/user/network').send({ name: 'x', adapter: 'chirpstack', base_url: PUBLIC, api_key: KEY }), 401, 'AUTH_REQUIRED');
      expectError(await svc.http().delete('/user/network/101'), 401, 'AUTH_REQUIRED');
    });
  });

  describe('SSRF: base_url may not point inside', () => {
    it.each([
      'http://127.0.0.1:8080',
      'http://127.1.2.3/',
      'http://2130706433/',
      'http://0x7f000001/',
      'http://0177.0.0.1/',
      'http://[::1]/',
      'http://[::ffff:127.0.0.1]/',
      'http://localhost:4000/',
      'http://0.0.0.0/',
      'http://169.254.169.254/latest/meta-data/',
      'http://10.1.2.3/',
      'http://172.16.0.1/',
      'http://192.168.1.1/',
      'http://100.64.0.1/',
      'http://[fd00::1]/',
      'http://[fe80::1]/',
      'file:///etc/passwd',
      'ftp://8.8.4.4/',
      'gopher://8.8.4.4/',
      'https://user:pass@8.8.4.4/',
      'http://no-such-host.invalid/',
    ])('refuses %s with 400 naming base_url, storing nothing', async (url) => {
      const before = await networks(alice);
      for (const adapter of ['chirpstack', 'ttn']) {
        const res = await as(alice).post('/user/network', {
          name: 'inside',
          adapter,
          base_url: url,
          api_key: KEY,
          application_id: 'my-app',
          webhook_id: 'dts',
        });
        expectError(res, 400, 'VALIDATION_FAILED', 'base_url');
      }
      expect(await networks(alice)).toEqual(before);
    });

    it('checks again when a command is handed over: a network moved inside fails the command, and nothing is called', async () => {
      const hits: string[] = [];
      const server = createServer((req, res) => {
        hits.push(`${req.method} ${req.url}`);
        res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ id: 'inside' }));
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
      try {
        const network = await create(alice, { name: 'moves inside' });
        // As if the address had been stored under another configuration (or its DNS had changed).
        await db.query('UPDATE networks SET base_url = $1 WHERE uid = $2', [`http://127.0.0.1:${(server.address() as AddressInfo).port}`, network.uid]);
        const eui = newEui();
        await as(alice).post(`/user/device/${eui}`, { network_ref: network.uid }).expect(201);
        const { uid } = expectSuccess<{ uid: number }>(await as(alice).post(`/user/device/command/${eui}`, { port: 1, payload_hex: '01' }), 201);
        let command: { status: string; reason: string | null } | undefined;
        await eventually(
          async () => {
            command = expectSuccess<{ uid: number; status: string; reason: string | null }[]>(await as(alice).get(`/user/device/command/${eui}`)).find(
              (c) => c.uid === uid,
            );
            return command !== undefined && command.status !== 'Created';
          },
          { what: `command ${uid} to leave Created`, intervalMs: 100 },
        ).catch(() => undefined); // the expectation says what it is
        expect(command).toMatchObject({ status: 'Failed', reason: expect.stringContaining('base_url') });
        // Its dispatch job has ended: no later attempt can reach the server.
        await commandDispatchEnded(svc, uid);
        expect(hits).toEqual([]);
      } finally {
        server.closeAllConnections();
        await new Promise<void>((r) => server.close(() => r()));
      }
    });
  });

  describe('another account’s network', () => {
    it('is neither listed nor shown nor deletable; its owner can use it, another account cannot', async () => {
      const network = await create(alice, { name: 'Alice only' });
      expect((await networks(bob)).map((n) => n.uid)).not.toContain(network.uid);
      expect(expectSuccess<{ uid: number }[]>(await as(bob).get('/datamodel/network')).map((n) => n.uid)).not.toContain(network.uid);
      expectError(await as(bob).get(`/datamodel/network/${network.uid}`), 404, 'NOT_FOUND');
      expectError(await as(bob).delete(`/user/network/${network.uid}`), 404, 'NOT_FOUND');
      expect((await networks(alice)).map((n) => n.uid)).toContain(network.uid);

      // The owner sets it on her own device through the metadata.
      const own = newEui();
      await as(alice).post(`/user/device/${own}`).expect(201);
      const [meta] = expectSuccess<[{ network_ref: number }]>(await as(alice).post(`/user/device/meta/${own}`, { network_ref: network.uid }));
      expect(meta.network_ref).toBe(network.uid);

      // Another account cannot, neither on registration nor through the metadata.
      const theirs = newEui();
      expectError(await as(bob).post(`/user/device/${theirs}`, { network_ref: network.uid }), 400, 'VALIDATION_FAILED', 'network_ref');
      expect(expectSuccess<string[]>(await as(bob).get('/user/device'))).not.toContain(theirs);
      await as(bob).post(`/user/device/${theirs}`).expect(201);
      expectError(await as(bob).post(`/user/device/meta/${theirs}`, { network_ref: network.uid }), 400, 'VALIDATION_FAILED', 'network_ref');
      const [after] = expectSuccess<[{ network_ref: number }]>(await as(bob).get(`/user/device/meta/${theirs}`));
      expect(after.network_ref).toBe(1);
    });
  });

  describe('HTTP JSON networks: POST /ingest/http/{uid}', () => {
    const MAPPING = {
      devEUI: 'end_device.eui',
      port: 'fport',
      payload: 'data',
      payload_encoding: 'base64',
      time: '/received/at',
      rssi: 'radio.rx[0].rssi',
      message_id: 'uuid',
      items: 'uplinks',
    };
    const ingest = (uid: number | string, body: unknown, header: [string, string] | null) => {
      const req = svc.http().post(`/ingest/http/${uid}`);
      return (header ? req.set(...header) : req).send(body as object);
    };
    const table = async (who: Caller, eui: string) =>
      expectSuccess<{ uplink: { network: string; RSSI: number | null; time_stamp_unix: number }; temperature: number | null }[]>(
        await as(who).get(`/user/device/table/${eui}`),
      );
    const item = (eui: string, uuid: string, at = '2026-05-01T12:00:00Z') => ({
      end_device: { eui: eui.toLowerCase().replace(/(..)(?!$)/g, '$1-') },
      fport: 1,
      data: Buffer.from('0167010E', 'hex').toString('base64'),
      received: { at },
      radio: { rx: [{ rssi: -71 }] },
      uuid,
    });

    it('reads the sender’s members through the mapping, records the uplinks on the network, and drops a redelivery', async () => {
      const res = await as(alice).post('/user/network', { name: 'Our LNS', adapter: 'http-json', mapping: MAPPING });
      const network = expectSuccess<Network & { mapping: Record<string, unknown> }>(res, 201);
      expect(network).toMatchObject({ adapter: 'http-json', base_url: null, mapping: { ...MAPPING, snr: 'snr', fcnt: 'fcnt' } });
      const eui = newEui();
      await as(alice).post(`/user/device/${eui}`, { decoder_ref: 2 }).expect(201);
      const body = { uplinks: [item(eui, 'm-1')] };
      expect(expectSuccess(await ingest(network.uid, body, bearer(alice.appToken)), 202)).toEqual({ accepted: 1, duplicates: 0, rejected: [] });
      expect(expectSuccess(await ingest(network.uid, body, ['X-Ingest-Secret', TEST_SECRETS.INGEST_SECRET]), 202)).toEqual({
        accepted: 0,
        duplicates: 1,
        rejected: [],
      });
      const [row] = await table(alice, eui);
      expect(row).toMatchObject({ uplink: { network: 'Our LNS', RSSI: -71, time_stamp_unix: 1_777_636_800 }, temperature: 27 });
    });

    it('the global network (uid 5) reads {devEUI, port, payload (hex), id}', async () => {
      const eui = newEui();
      await as(bob).post(`/user/device/${eui}`).expect(201);
      const res = await ingest(5, [{ devEUI: eui, port: 2, payload: '0102', id: 7 }], bearer(bob.appToken));
      expect(expectSuccess(res, 202)).toEqual({ accepted: 1, duplicates: 0, rejected: [] });
      expect((await table(bob, eui))[0]?.uplink.network).toBe('HTTP JSON');
    });

    it('refuses a bad item naming its mapped path, and a bad delivery whole, storing nothing', async () => {
      const network = await create(alice, { name: 'strict', adapter: 'http-json', mapping: MAPPING, base_url: undefined, api_key: undefined });
      const eui = newEui();
      await as(alice).post(`/user/device/${eui}`).expect(201);
      const { data: _data, ...noPayload } = item(eui, 'bad-1');
      const answer = expectSuccess<{ rejected: { index: number; code: string; message: string }[] }>(
        await ingest(network.uid, { uplinks: [noPayload, { ...item(eui, 'bad-2'), fport: 300 }] }, bearer(alice.appToken)),
        202,
      );
      expect(answer.rejected).toEqual([
        { index: 0, devEUI: eui, code: 'VALIDATION_FAILED', field: 'data', message: 'data is required' },
        { index: 1, devEUI: eui, code: 'VALIDATION_FAILED', field: 'fport', message: expect.stringContaining('fport') },
      ]);
      expectError(await ingest(network.uid, { uplinks: {} }, bearer(alice.appToken)), 400, 'VALIDATION_FAILED', 'uplinks');
      expectError(await ingest(network.uid, { uplinks: Array(1001).fill(item(eui, 'x')) }, bearer(alice.appToken)), 400, 'VALIDATION_FAILED', 'body');
      expectError(await ingest('abc', {}, bearer(alice.appToken)), 400, 'VALIDATION_FAILED', 'uid');
      expect(await table(alice, eui)).toEqual([]);
    });

    it.each([
      ['a path that is none', { mapping: { devEUI: 'a..b' } }, 'mapping.devEUI'],
      ['a path into the prototype', { mapping: { port: '__proto__.x' } }, 'mapping.port'],
      ['an unknown mapping member', { mapping: { colour: 'x' } }, 'mapping.colour'],
      ['an unknown encoding', { mapping: { payload_encoding: 'utf8' } }, 'mapping.payload_encoding'],
      ['a mapping that is no object', { mapping: 'devEUI' }, 'mapping'],
      ['a base_url', { base_url: PUBLIC }, 'base_url'],
      ['an api_key', { api_key: KEY }, 'api_key'],
    ])('refuses an HTTP JSON network with %s, naming the field, storing nothing', async (_what, change: Record<string, unknown>, field) => {
      const before = await networks(alice);
      expectError(await as(alice).post('/user/network', { name: 'bad', adapter: 'http-json', ...change }), 400, 'VALIDATION_FAILED', field);
      expectError(
        await as(alice).post('/user/network', { name: 'bad', adapter: 'chirpstack', base_url: PUBLIC, api_key: KEY, mapping: {} }),
        400,
        'VALIDATION_FAILED',
        'mapping',
      );
      expect(await networks(alice)).toEqual(before);
    });

    it('needs ingest credentials; another account’s network, or one of another kind, is 404', async () => {
      const network = await create(alice, { name: 'Alice’s LNS', adapter: 'http-json', mapping: MAPPING, base_url: undefined, api_key: undefined });
      const eui = newEui();
      await as(alice).post(`/user/device/${eui}`).expect(201);
      const body = { uplinks: [item(eui, 'c-1')] };
      expectError(await ingest(network.uid, body, null), 401, 'AUTH_REQUIRED');
      expectError(await ingest(network.uid, body, ['X-Ingest-Secret', 'not-the-secret-0123456789']), 401, 'INVALID_TOKEN');
      expectError(await ingest(network.uid, body, bearer(bob.appToken)), 404, 'NOT_FOUND', 'uid');
      expectError(await ingest(2, body, bearer(alice.appToken)), 404, 'NOT_FOUND', 'uid');
      expectError(await ingest(999_999, body, bearer(alice.appToken)), 404, 'NOT_FOUND', 'uid');
      expect(await table(alice, eui)).toEqual([]);
      // An account's network reaches that account's devices only, even with the platform secret.
      const bobs = newEui();
      await as(bob).post(`/user/device/${bobs}`).expect(201);
      const res = await ingest(network.uid, { uplinks: [item(bobs, 'c-2')] }, ['X-Ingest-Secret', TEST_SECRETS.INGEST_SECRET]);
      expect(expectSuccess<{ rejected: { code: string }[] }>(res, 202).rejected).toEqual([expect.objectContaining({ code: 'NOT_FOUND' })]);
      expect(await table(bob, bobs)).toEqual([]);
    });
  });
});
