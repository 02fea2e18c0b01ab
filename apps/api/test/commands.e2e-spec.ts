import { getQueueToken } from '@nestjs/bullmq';
import { getDataSourceToken } from '@nestjs/typeorm';
import { commandDispatchJobId, QUEUES } from '@dts/domain';
import type { Queue } from 'bullmq';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { DataSource } from 'typeorm';
import { parse } from 'yaml';
import { accountWithCredentials, bearer, tokenClient } from './support/accounts';
import { expectError, expectSuccess } from './support/envelope';
import { eventually, pause } from '@dts/platform';
import { startTestService, TEST_SECRETS, type TestService } from './support/harness';
import { commandDispatchEnded } from './support/queues';

/*
 * Downlink commands (docs/api.md §6, §11): both request forms and every way to get them wrong, who may
 * command a device, the worker handing commands to the simulated network, to ChirpStack v4 and to
 * The Things Stack v3 (real local HTTP servers standing in for them), the network events that move a
 * command on, retries and permanent failures, cancelling, and the requeue of a command whose
 * dispatch job was lost.
 *
 * The service runs with OUTBOUND_ALLOW_PRIVATE=true so that adapters may call 127.0.0.1; the refusal
 * of private addresses is networks.e2e-spec.ts's subject.
 */

type Caller = Awaited<ReturnType<typeof accountWithCredentials>>;

interface Command {
  uid: number;
  time_stamp: string;
  status: 'Created' | 'Scheduled' | 'Sent' | 'Acknowledged' | 'Failed' | 'Cancelled';
  network: string;
  devEUI: string;
  confirmed: 0 | 1;
  port: number;
  payload_base64: string;
  payload_hex: string;
  payload_ASCII: string;
  reason: string | null;
}

interface IngestResult {
  accepted: number;
  duplicates: number;
  rejected: { index: number; devEUI: string | null; code: string; message: string }[];
}

/** One request the stand-in network received. */
interface Hit {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: unknown;
}

type Reply = (hit: Hit, res: ServerResponse, n: number) => void;

const newEui = () => randomBytes(8).toString('hex').toUpperCase();
const secretHeader: [string, string] = ['X-Ingest-Secret', TEST_SECRETS.INGEST_SECRET];
const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) =>
  res.writeHead(status, { 'Content-Type': 'application/json', ...headers }).end(JSON.stringify(body));

const TIME_STAMP = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
const SIMULATED = 1;
const DECODER = { raw: 1, cayenne: 2, tracker: 3, environment: 4, camera: 5 } as const;

/**
 * A strict codec, as vendors write them: `data` must hold exactly one of led (fPort 42), ping (the
 * default port) or big (over 242 bytes), and any other member is a TypeError.
 */
const CODEC = `
function decodeUplink(input) { return { data: { length: input.bytes.length }, warnings: [], errors: [] }; }
function encodeDownlink(input) {
  var d = input.data;
  var keys = Object.keys(d);
  for (var k = 0; k < keys.length; k++) if (['led', 'ping', 'big'].indexOf(keys[k]) < 0) throw new TypeError('unknown member ' + keys[k]);
  if (d.led) return { bytes: [0xA0, d.led.on ? 1 : 0, d.led.level & 0xff], fPort: 42, warnings: [], errors: [] };
  if (d.ping) return { bytes: [0x50] };
  if (d.big) { var b = []; for (var i = 0; i < 243; i++) b.push(i & 0xff); return { bytes: b, fPort: 2 }; }
  return { errors: ['nothing to encode'] };
}`;
const VENDOR = join(__dirname, '../../../test-data/lorawan-devices/vendor');

describe('commands', () => {
  let svc: TestService;
  let db: DataSource;
  let alice: Caller;
  let bob: Caller;
  let carol: Caller;
  const closers: (() => Promise<void>)[] = [];

  const as = (who: Caller) => tokenClient(svc, who.appToken);

  /** Registers a device (simulated network by default). */
  const device = async (who: Caller, body: object = {}) => {
    const eui = newEui();
    expectSuccess(await as(who).post(`/user/device/${eui}`, body), 201);
    return eui;
  };
  const list = async (who: Caller, eui: string) => expectSuccess<Command[]>(await as(who).get(`/user/device/command/${eui}`));
  const send = async (who: Caller, eui: string, body: object) => expectSuccess<Command>(await as(who).post(`/user/device/command/${eui}`, body), 201);
  const find = async (who: Caller, eui: string, uid: number) => (await list(who, eui)).find((c) => c.uid === uid);

  /** Polls the command until its status is one of `statuses` (or the time is up); returns it as last seen. */
  const waitFor = async (who: Caller, eui: string, uid: number, statuses: Command['status'][], ms = 10_000) => {
    let last: Command | undefined;
    await eventually(
      async () => {
        last = await find(who, eui, uid);
        return !!last && statuses.includes(last.status);
      },
      { what: `command ${uid} to be ${statuses.join(' or ')}`, timeoutMs: ms },
    ).catch(() => undefined); // the caller's expectation says what it got instead
    return last;
  };
  const waitUntil = async (check: () => boolean, ms = 10_000) => {
    await eventually(check, { what: 'the condition', timeoutMs: ms }).catch(() => undefined);
    return check();
  };
  const dispatchEnded = (uid: number) => commandDispatchEnded(svc, uid);

  /** A local HTTP server standing in for a network's API; records every request. */
  const fakeNetwork = async (reply: Reply, port = 0) => {
    const hits: Hit[] = [];
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: unknown = text;
        try {
          body = JSON.parse(text);
        } catch {
          // left as text
        }
        const hit = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body };
        hits.push(hit);
        reply(hit, res, hits.length);
      });
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
    const close = () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
    closers.push(close);
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, port: (server.address() as AddressInfo).port, hits, close };
  };

  /** One uplink of the device through /ingest/rest (frame counter `fcnt`: the same one again is a redelivery). */
  const uplink = async (eui: string, fcnt: number) => {
    const res = await svc
      .http()
      .post('/ingest/rest')
      .set(...secretHeader)
      .send({ devEUI: eui, port: 1, payload_hex: '00', fcnt, time_stamp_unix: 1_777_636_800 + fcnt });
    return expectSuccess<IngestResult>(res, 202);
  };

  /** An account network (through the API) and a device on it (through POST /user/device/meta). */
  const deviceOnNetwork = async (who: Caller, network: Record<string, unknown>, decoderRef: number = DECODER.raw) => {
    const net = expectSuccess<{ uid: number }>(await as(who).post('/user/network', { name: `net-${randomBytes(2).toString('hex')}`, ...network }), 201);
    const eui = await device(who, { decoder_ref: decoderRef });
    const [meta] = expectSuccess<[{ network_ref: number }]>(await as(who).post(`/user/device/meta/${eui}`, { network_ref: net.uid }));
    expect(meta.network_ref).toBe(net.uid);
    return { eui, networkUid: net.uid };
  };

  beforeAll(async () => {
    // A network that never answers is given up on after 3 s, not the default 10 s: the fake
    // networks on loopback answer in milliseconds, so no other call comes near it.
    svc = await startTestService({ env: { OUTBOUND_ALLOW_PRIVATE: 'true', ACCOUNT_MAX_DEVICES: '1000', NETWORK_TIMEOUT_MS: '3000' } });
    db = svc.app.get<DataSource>(getDataSourceToken());
    [alice, bob, carol] = await Promise.all([accountWithCredentials(svc, 'alice'), accountWithCredentials(svc, 'bob'), accountWithCredentials(svc, 'carol')]);
  });
  afterAll(async () => {
    for (const close of closers) await close();
    await svc?.close();
  });

  describe('POST /user/device/command/{eui}: the raw form', () => {
    it('stores the command Created, with the payload in all three encodings, whichever encoding came in', async () => {
      const eui = await device(alice);
      const hello = send(alice, eui.toLowerCase().replace(/(..)(?!$)/g, '$1:'), { port: 1, payload_hex: '48656c6c6f' });
      expect(await hello).toEqual({
        uid: expect.any(Number),
        time_stamp: expect.stringMatching(TIME_STAMP),
        status: 'Created',
        network: 'Simulated',
        devEUI: eui,
        confirmed: 0,
        port: 1,
        payload_base64: 'SGVsbG8=',
        payload_hex: '48656C6C6F',
        payload_ASCII: 'Hello',
        reason: null,
      });
      expect(await send(alice, eui, { port: 223, confirmed: true, payload_base64: 'AQID' })).toMatchObject({
        status: 'Created',
        confirmed: 1,
        port: 223,
        payload_hex: '010203',
        payload_base64: 'AQID',
        payload_ASCII: '\\x01\\x02\\x03',
      });
      expect(await send(alice, eui, { port: 2, confirmed: false, payload_ASCII: 'A\\x5c\\xff' })).toMatchObject({
        confirmed: 0,
        port: 2,
        payload_hex: '415CFF',
        payload_base64: 'QVz/',
        payload_ASCII: 'A\\x5c\\xff',
      });
      const max = await send(alice, eui, { port: 9, payload_hex: 'AB'.repeat(242) });
      expect(max.payload_hex).toBe('AB'.repeat(242));
      expect(Buffer.from(max.payload_base64, 'base64')).toHaveLength(242);
    });

    const invalid: [string, Record<string, unknown>, string | RegExp][] = [
      ['port 0', { port: 0, payload_hex: '01' }, 'port'],
      ['port 224', { port: 224, payload_hex: '01' }, 'port'],
      ['no port', { payload_hex: '01' }, 'port'],
      ['a fractional port', { port: 1.5, payload_hex: '01' }, 'port'],
      ['a port as text', { port: '5', payload_hex: '01' }, 'port'],
      ['two payloads', { port: 5, payload_hex: '01', payload_base64: 'AQ==' }, /^payload/],
      ['three payloads', { port: 5, payload_hex: '01', payload_base64: 'AQ==', payload_ASCII: 'a' }, /^payload/],
      ['no payload', { port: 5 }, /^payload/],
      ['bad hex', { port: 5, payload_hex: 'ZZ' }, 'payload_hex'],
      ['odd-length hex', { port: 5, payload_hex: 'ABC' }, 'payload_hex'],
      ['empty hex', { port: 5, payload_hex: '' }, 'payload_hex'],
      ['bad Base64', { port: 5, payload_base64: '***' }, 'payload_base64'],
      ['non-ASCII text', { port: 5, payload_ASCII: 'é' }, 'payload_ASCII'],
      ['a broken \\x escape', { port: 5, payload_ASCII: 'a\\x4' }, 'payload_ASCII'],
      ['243 bytes of hex', { port: 5, payload_hex: '00'.repeat(243) }, 'payload_hex'],
      ['243 bytes of Base64', { port: 5, payload_base64: Buffer.alloc(243, 7).toString('base64') }, 'payload_base64'],
      ['243 bytes of ASCII', { port: 5, payload_ASCII: 'a'.repeat(243) }, 'payload_ASCII'],
      ['an unknown member', { port: 5, payload_hex: '01', priority: 'HIGH' }, 'priority'],
      ['params with the raw form', { port: 5, payload_hex: '01', params: {} }, 'params'],
      ['confirmed as text', { port: 5, payload_hex: '01', confirmed: 'yes' }, 'confirmed'],
      ['confirmed as a number other than 0 and 1', { port: 5, payload_hex: '01', confirmed: 2 }, 'confirmed'],
      ['confirmed as an array', { port: 5, payload_hex: '01', confirmed: [true] }, 'confirmed'],
      ['a payload that is not a string', { port: 5, payload_hex: 1 }, 'payload_hex'],
      ['an empty body', {}, 'port'],
    ];
    it.each(invalid)('refuses %s with 400 naming the field, storing nothing', async (_what, body, field) => {
      const eui = await device(alice, { decoder_ref: DECODER.tracker });
      await send(alice, eui, { port: 3, payload_hex: '00' });
      // Compared by uid: the worker may move the earlier command on meanwhile.
      const uids = async () => (await list(alice, eui)).map((c) => c.uid);
      const before = await uids();
      const errors = expectError(await as(alice).post(`/user/device/command/${eui}`, body), 400, 'VALIDATION_FAILED');
      expect(errors.map((e) => e.field)).toContainEqual(typeof field === 'string' ? field : expect.stringMatching(field));
      expect(await uids()).toEqual(before);
    });

    it('refuses __proto__ as an unknown member', async () => {
      const eui = await device(alice);
      const res = await svc
        .http()
        .post(`/user/device/command/${eui}`)
        .set(...bearer(alice.appToken))
        .set('Content-Type', 'application/json')
        .send('{"port": 5, "payload_hex": "01", "__proto__": {"port": 6}}');
      expectError(res, 400, 'VALIDATION_FAILED', '__proto__');
      expect(await list(alice, eui)).toEqual([]);
    });

    it('refuses a device whose network takes no downlinks (Generic REST) or that has none', async () => {
      const rest = await device(alice, { network_ref: 4 });
      expectError(await as(alice).post(`/user/device/command/${rest}`, { port: 5, payload_hex: '01' }), 400, 'VALIDATION_FAILED');
      expect(await list(alice, rest)).toEqual([]);
    });
  });

  describe('POST /user/device/command/{eui}: the named form and GET …/available', () => {
    it('lists each device family’s commands with their parameter schemas', async () => {
      const tracker = await device(alice, { decoder_ref: DECODER.tracker });
      const available = expectSuccess<{ name: string; description: string; port: number | null; params: Record<string, Record<string, unknown>> }[]>(
        await as(alice).get(`/user/device/command/${tracker}/available`),
      );
      expect(available.map((c) => c.name).sort()).toEqual(['reboot', 'request_position', 'set_gps', 'set_interval']);
      expect(available.find((c) => c.name === 'set_interval')).toMatchObject({
        description: expect.any(String),
        port: 10,
        params: { seconds: { type: 'integer', minimum: 30, maximum: 86_400 } },
      });
      expect(available.find((c) => c.name === 'set_gps')).toMatchObject({ params: { enabled: { type: 'boolean' } } });
      expect(available.find((c) => c.name === 'reboot')).toMatchObject({ params: {} });

      const names = async (decoderRef: number) => {
        const eui = await device(alice, { decoder_ref: decoderRef });
        return expectSuccess<{ name: string }[]>(await as(alice).get(`/user/device/command/${eui}/available`))
          .map((c) => c.name)
          .sort();
      };
      expect(await names(DECODER.environment)).toEqual(['reboot', 'set_interval']);
      expect(await names(DECODER.camera)).toEqual(['reboot', 'set_interval', 'set_night_mode', 'set_pir', 'take_photo']);
      expect(await names(DECODER.cayenne)).toEqual(['set_digital_output']);
      expect(await names(DECODER.raw)).toEqual([]);
    });

    it.each([
      [DECODER.tracker, { command: 'set_interval', params: { seconds: 3600 } }, 10, '0100000E10', 'AQAADhA=', '\\x01\\x00\\x00\\x0e\\x10'],
      [DECODER.tracker, { command: 'set_gps', params: { enabled: true } }, 10, '0301', 'AwE=', '\\x03\\x01'],
      [DECODER.tracker, { command: 'request_position' }, 10, '02', 'Ag==', '\\x02'],
      [DECODER.tracker, { command: 'reboot', params: {}, confirmed: true }, 10, 'FF', '/w==', '\\xff'],
      [DECODER.environment, { command: 'set_interval', params: { seconds: 60 } }, 10, '010000003C', 'AQAAADw=', '\\x01\\x00\\x00\\x00<'],
      [DECODER.camera, { command: 'take_photo' }, 10, '10', 'EA==', '\\x10'],
      [DECODER.camera, { command: 'set_night_mode', params: { enabled: false } }, 10, '1200', 'EgA=', '\\x12\\x00'],
      [DECODER.camera, { command: 'set_interval', params: { seconds: 86_400 } }, 10, '0100015180', 'AQABUYA=', '\\x01\\x00\\x01Q\\x80'],
      [DECODER.cayenne, { command: 'set_digital_output', params: { channel: 3, value: 1 } }, 99, '030101', 'AwEB', '\\x03\\x01\\x01'],
    ])('decoder %i encodes %j on port %i as %s', async (decoderRef, body, port, hex, base64, ascii) => {
      const eui = await device(alice, { decoder_ref: decoderRef });
      const command = await send(alice, eui, body);
      expect(command).toMatchObject({
        status: 'Created',
        port,
        payload_hex: hex,
        payload_base64: base64,
        payload_ASCII: ascii,
        confirmed: 'confirmed' in body ? 1 : 0,
      });
      expect((await list(alice, eui)).map((c) => c.uid)).toEqual([command.uid]);
    });

    const invalid: [string, number, Record<string, unknown>, string][] = [
      ['port with the named form', DECODER.tracker, { command: 'set_interval', params: { seconds: 60 }, port: 10 }, 'port'],
      ['a payload with the named form', DECODER.tracker, { command: 'reboot', payload_hex: 'FF' }, 'payload_hex'],
      ['an unknown command', DECODER.tracker, { command: 'self_destruct' }, 'command'],
      ['a command of another family', DECODER.environment, { command: 'take_photo' }, 'command'],
      ['any command for the raw decoder', DECODER.raw, { command: 'reboot' }, 'command'],
      ['a command that is no name', DECODER.tracker, { command: 'Set-Interval' }, 'command'],
      ['a command that is not a string', DECODER.tracker, { command: 7 }, 'command'],
      ['a missing parameter', DECODER.tracker, { command: 'set_interval' }, 'params.seconds'],
      ['a parameter under its minimum', DECODER.tracker, { command: 'set_interval', params: { seconds: 29 } }, 'params.seconds'],
      ['a parameter under the family’s minimum', DECODER.environment, { command: 'set_interval', params: { seconds: 59 } }, 'params.seconds'],
      ['a parameter over its maximum', DECODER.tracker, { command: 'set_interval', params: { seconds: 86_401 } }, 'params.seconds'],
      ['a fractional parameter', DECODER.tracker, { command: 'set_interval', params: { seconds: 60.5 } }, 'params.seconds'],
      ['a parameter as text', DECODER.tracker, { command: 'set_interval', params: { seconds: '60' } }, 'params.seconds'],
      ['a boolean parameter as a number', DECODER.tracker, { command: 'set_gps', params: { enabled: 1 } }, 'params.enabled'],
      ['an extra parameter', DECODER.tracker, { command: 'set_interval', params: { seconds: 60, unit: 's' } }, 'params.unit'],
      ['a parameter for a command without any', DECODER.tracker, { command: 'reboot', params: { now: true } }, 'params.now'],
      ['params that are not an object', DECODER.tracker, { command: 'set_interval', params: [60] }, 'params'],
      ['an LPP value out of range', DECODER.cayenne, { command: 'set_digital_output', params: { channel: 3, value: 2 } }, 'params.value'],
      ['bad confirmed', DECODER.tracker, { command: 'reboot', confirmed: 'true' }, 'confirmed'],
      ['an unknown member', DECODER.tracker, { command: 'reboot', when: 'now' }, 'when'],
    ];
    it.each(invalid)('refuses %s with 400 naming the field, storing nothing', async (_what, decoderRef, body, field) => {
      const eui = await device(alice, { decoder_ref: decoderRef });
      expectError(await as(alice).post(`/user/device/command/${eui}`, body), 400, 'VALIDATION_FAILED', field);
      expect(await list(alice, eui)).toEqual([]);
    });

    it('encodes with the device’s own JavaScript codec (encodeDownlink), params as its data exactly as sent, on the codec’s port or port 1', async () => {
      const codec = expectSuccess<{ uid: number }>(await as(alice).post('/user/codec', { name: 'with downlinks', script: CODEC }), 201);
      const eui = await device(alice, { decoder_ref: codec.uid });
      const available = expectSuccess<{ name: string; description: string }[]>(await as(alice).get(`/user/device/command/${eui}/available`));
      expect(available).toEqual([expect.objectContaining({ name: '(any)', description: expect.stringContaining('exactly as sent') })]);

      // The command's name is a label: the strict codec sees only `params` (a name merged in was a TypeError).
      expect(await send(alice, eui, { command: 'set_led', params: { led: { on: true, level: 7 } } })).toMatchObject({
        status: 'Created',
        port: 42,
        payload_hex: 'A00107',
        payload_base64: 'oAEH',
      });
      expect(await send(alice, eui, { command: 'ping', params: { ping: true }, confirmed: true })).toMatchObject({
        port: 1,
        payload_hex: '50',
        payload_ASCII: 'P',
        confirmed: 1,
      });
      const before = await list(alice, eui);
      expect(before).toHaveLength(2);
      // Refused by the codec, each 400 naming `command` with the codec's reason; nothing stored.
      const refusals: [object, RegExp][] = [
        [{ command: 'dance' }, /nothing to encode/],
        [{ command: 'led', params: { led: { on: true }, colour: 'red' } }, /TypeError: unknown member colour/],
        [{ command: 'big', params: { big: true } }, /243 bytes/],
      ];
      for (const [body, reason] of refusals) {
        const [error] = expectError(await as(alice).post(`/user/device/command/${eui}`, body), 400, 'VALIDATION_FAILED', 'command');
        expect(error?.message).toMatch(reason);
      }
      expectError(await as(alice).post(`/user/device/command/${eui}`, { command: 'ping', params: { ping: true }, port: 3 }), 400, 'VALIDATION_FAILED', 'port');
      expect((await list(alice, eui)).map((c) => c.uid)).toEqual(before.map((c) => c.uid));

      // A codec without encodeDownlink offers no named command.
      const decodeOnly = expectSuccess<{ uid: number }>(
        await as(alice).post('/user/codec', { name: 'uplinks only', script: 'function decodeUplink(i) { return { data: {} }; }' }),
        201,
      );
      const plain = await device(alice, { decoder_ref: decodeOnly.uid });
      expectError(await as(alice).post(`/user/device/command/${plain}`, { command: 'ping' }), 400, 'VALIDATION_FAILED', 'command');
      expect(await list(alice, plain)).toEqual([]);
    });

    /**
     * Every downlinkEncoder example of the vendor codecs in test-data/lorawan-devices (their codec
     * YAML, imported as the device repository lays them out), sent through the route as a user
     * would: `params` is the example's `input.data`, and the command stored carries the example's
     * bytes on its port (`fPort`, or Tektelic's `port`). Tektelic's encoder is strict: with the
     * command's name merged into its data it threw a TypeError (issue 28).
     */
    it('encodes every downlink example of the real vendor codecs in test-data to its expected bytes and port', async () => {
      type Example = {
        description: string;
        input: { data: Record<string, unknown> };
        output: { bytes?: number[]; fPort?: number; port?: string; errors?: string[] };
      };
      const hex = (bytes: number[]) => Buffer.from(bytes).toString('hex').toUpperCase();
      const seen: string[] = [];
      for (const vendor of readdirSync(VENDOR)) {
        for (const yamlName of readdirSync(join(VENDOR, vendor)).filter((f) => f.endsWith('-codec.yaml'))) {
          const yaml = readFileSync(join(VENDOR, vendor, yamlName), 'utf8');
          const examples = ((parse(yaml) as { downlinkEncoder?: { examples?: Example[] } }).downlinkEncoder?.examples ?? []) as Example[];
          if (examples.length === 0) continue;
          const files = Object.fromEntries(
            [...yaml.matchAll(/fileName:\s*(\S+)/g)].map(([, name]) => [name!, readFileSync(join(VENDOR, vendor, name!), 'utf8')]),
          );
          const codec = expectSuccess<{ uid: number }>(await as(alice).post('/user/codec/import', { name: `${vendor} ${yamlName}`, yaml, files }), 201);
          const eui = await device(alice, { decoder_ref: codec.uid });
          for (const example of examples) {
            const what = `${vendor}/${yamlName}: ${example.description}`;
            seen.push(what);
            const res = await as(alice).post(`/user/device/command/${eui}`, { command: 'example', params: example.input.data });
            if (example.output.errors) {
              const [error] = expectError(res, 400, 'VALIDATION_FAILED', 'command');
              expect({ what, message: error?.message }).toEqual({ what, message: example.output.errors.join('; ') });
              continue;
            }
            const command = expectSuccess<Command>(res, 201);
            const port = example.output.fPort ?? Number(example.output.port ?? 1);
            expect({ what, port: command.port, payload_hex: command.payload_hex }).toEqual({ what, port, payload_hex: hex(example.output.bytes!) });
          }
        }
      }
      // Tektelic's smart room encoder among them (its example on port 100), and 18 examples in all (as test-data's README counts them).
      expect(seen).toContain('tektelic/t00061xx-codec.yaml: Ticks Per Light Downlink');
      expect(seen).toHaveLength(18);
    }, 60_000);
  });

  describe('GET /user/device/command/{eui}: pages and statuses', () => {
    /**
     * 130 past commands stored as the network left them and 7 still in its queue, two to a second
     * (ties the uid orders). Odd page sizes below end pages inside a second.
     */
    const history = async () => {
      const eui = await device(alice);
      const statuses = ['Sent', 'Acknowledged', 'Failed', 'Cancelled'] as const;
      await db.query(
        `INSERT INTO commands (device_id, created_at, status, port, payload)
         SELECT d.uid, to_timestamp(1777636800 + i / 2), CASE WHEN i < 130 THEN ($2::text[])[1 + i % 4] ELSE 'Scheduled' END, 1, '\\x01'::bytea
         FROM devices d, generate_series(0, 136) i WHERE d.eui = $1`,
        [eui, statuses],
      );
      const order: { uid: number; status: string }[] = await db.query(
        `SELECT c.uid, c.status FROM commands c JOIN devices d ON d.uid = c.device_id WHERE d.eui = $1 ORDER BY c.created_at DESC, c.uid DESC`,
        [eui],
      );
      return { eui, order };
    };
    const page = async (eui: string, query: string) => expectSuccess<Command[]>(await as(alice).get(`/user/device/command/${eui}?${query}`));

    it('answers 100 newest first when no limit is given; limit and before (the last uid) walk the rest, and a page past the end is empty', async () => {
      const { eui, order } = await history();
      expect((await list(alice, eui)).map((c) => c.uid)).toEqual(order.slice(0, 100).map((c) => c.uid));
      const walked: Command[] = [];
      let before = '';
      let cutInsideASecond = 0;
      for (let pages = 0; pages < 10; pages++) {
        const got = await page(eui, `limit=50${before}`);
        if (walked.length > 0 && got[0]?.time_stamp === walked.at(-1)!.time_stamp) cutInsideASecond++;
        walked.push(...got);
        if (got.length < 50) break;
        before = `&before=${got[got.length - 1]!.uid}`;
      }
      expect(walked.map((c) => c.uid)).toEqual(order.map((c) => c.uid));
      // The keyset was tried where only the uid tells the rows apart.
      expect(cutInsideASecond).toBeGreaterThan(0);
      expect(await page(eui, `before=${order[order.length - 1]!.uid}`)).toEqual([]);
      const again = await page(eui, `limit=1000`);
      expect(again.map((c) => c.uid)).toEqual(order.map((c) => c.uid));
    });

    it('status keeps the statuses named, in the same order and pages', async () => {
      const { eui, order } = await history();
      const ended = order.filter((c) => c.status === 'Failed' || c.status === 'Cancelled').map((c) => c.uid);
      const first = await page(eui, 'status=Failed,Cancelled&limit=39');
      expect(first.map((c) => c.uid)).toEqual(ended.slice(0, 39));
      const rest = await page(eui, `status=Cancelled,Failed,Failed&before=${first[38]!.uid}`);
      expect(rest.map((c) => c.uid)).toEqual(ended.slice(39));
      expect(rest[0]!.time_stamp).toBe(first[38]!.time_stamp);
      // What waits to leave (the partial index's query), in pages of 3.
      const waiting = order.filter((c) => c.status === 'Scheduled').map((c) => c.uid);
      expect(waiting).toHaveLength(7);
      const head = await page(eui, 'status=Created,Scheduled&limit=2');
      expect(head.map((c) => c.uid)).toEqual(waiting.slice(0, 2));
      const tail = await page(eui, `status=Scheduled&before=${head[1]!.uid}`);
      expect(tail.map((c) => c.uid)).toEqual(waiting.slice(2));
      expect(tail[0]!.time_stamp).toBe(head[1]!.time_stamp);
      expect(await page(eui, 'status=Created')).toEqual([]);
    });

    it('refuses a bad limit, before or status naming it; another device’s uid as before lists nothing of it', async () => {
      const { eui, order } = await history();
      for (const [query, field] of [
        ['limit=0', 'limit'],
        ['limit=1001', 'limit'],
        ['limit=ten', 'limit'],
        ['before=-1', 'before'],
        ['before=1e3', 'before'],
        ['status=Sent,', 'status'],
        ['status=sent', 'status'],
        ['status=Queued', 'status'],
        ['surprise=1', 'surprise'],
      ]) {
        expectError(await as(alice).get(`/user/device/command/${eui}?${query}`), 400, 'VALIDATION_FAILED', field);
      }
      const other = await history();
      expect(await page(other.eui, 'limit=5')).toHaveLength(5);
      expect(await page(other.eui, `before=${order[0]!.uid}`)).toEqual([]);
      expect(await page(eui, 'before=999999999999999999')).toEqual([]);
      expectError(await as(carol).get(`/user/device/command/${eui}?limit=5&status=Sent`), 404, 'NOT_FOUND');
      expectError(await svc.http().get(`/user/device/command/${eui}?limit=5`), 401, 'AUTH_REQUIRED');
    });
  });

  describe('who may command a device', () => {
    it('another account gets 404 on list, available, create and cancel, and stores nothing', async () => {
      const eui = await device(alice, { decoder_ref: DECODER.tracker });
      const own = await send(alice, eui, { port: 5, payload_hex: '01' });
      expectError(await as(carol).get(`/user/device/command/${eui}`), 404, 'NOT_FOUND');
      expectError(await as(carol).get(`/user/device/command/${eui}/available`), 404, 'NOT_FOUND');
      expectError(await as(carol).post(`/user/device/command/${eui}`, { port: 5, payload_hex: '02' }), 404, 'NOT_FOUND');
      expectError(await as(carol).post(`/user/device/command/${eui}`, { command: 'reboot' }), 404, 'NOT_FOUND');
      expectError(await as(carol).delete(`/user/device/command/${eui}/${own.uid}`), 404, 'NOT_FOUND');
      expect((await list(alice, eui)).map((c) => c.uid)).toEqual([own.uid]);
    });

    it('a user the device is shared with may list and send commands', async () => {
      const eui = await device(alice, { decoder_ref: DECODER.tracker });
      await as(alice).post(`/user/device/share/${eui}`, { username: bob.account.username }).expect(201);
      const byBob = await send(bob, eui, { command: 'set_gps', params: { enabled: false } });
      expect(byBob).toMatchObject({ devEUI: eui, payload_hex: '0300' });
      expect((await list(bob, eui)).map((c) => c.uid)).toEqual([byBob.uid]);
      expect((await list(alice, eui)).map((c) => c.uid)).toEqual([byBob.uid]);
      expect(expectSuccess<unknown[]>(await as(bob).get(`/user/device/command/${eui}/available`))).toHaveLength(4);
    });

    it('needs credentials', async () => {
      const eui = await device(alice);
      const { uid } = await send(alice, eui, { port: 5, payload_hex: '01' });
      expectError(await svc.http().get(`/user/device/command/${eui}`), 401, 'AUTH_REQUIRED');
      expectError(await svc.http().get(`/user/device/command/${eui}/available`), 401, 'AUTH_REQUIRED');
      expectError(await svc.http().post(`/user/device/command/${eui}`).send({ port: 5, payload_hex: '01' }), 401, 'AUTH_REQUIRED');
      expectError(await svc.http().delete(`/user/device/command/${eui}/${uid}`), 401, 'AUTH_REQUIRED');
      expect(await list(alice, eui)).toHaveLength(1);
    });

    it.each(['xyz', '70b3d57ed00000', '70b3d57ed00000a1ff', '70b3d57ed00000zz'])('answers 400 naming eui for the EUI %p on every route', async (eui) => {
      expectError(await as(alice).get(`/user/device/command/${eui}`), 400, 'VALIDATION_FAILED', 'eui');
      expectError(await as(alice).get(`/user/device/command/${eui}/available`), 400, 'VALIDATION_FAILED', 'eui');
      expectError(await as(alice).post(`/user/device/command/${eui}`, { port: 5, payload_hex: '01' }), 400, 'VALIDATION_FAILED', 'eui');
      expectError(await as(alice).delete(`/user/device/command/${eui}/1`), 400, 'VALIDATION_FAILED', 'eui');
    });

    it('an unknown but well-formed EUI is 404', async () => {
      const eui = newEui();
      expectError(await as(alice).get(`/user/device/command/${eui}`), 404, 'NOT_FOUND');
      expectError(await as(alice).post(`/user/device/command/${eui}`, { port: 5, payload_hex: '01' }), 404, 'NOT_FOUND');
    });
  });

  describe('the simulated network', () => {
    it('takes each command: it reaches Scheduled, keeps its payload, and the list is newest first', async () => {
      const eui = await device(alice, { decoder_ref: DECODER.tracker });
      const first = await send(alice, eui, { port: 7, payload_ASCII: 'first' });
      const second = await send(alice, eui, { command: 'set_interval', params: { seconds: 120 } });
      const third = await send(alice, eui, { port: 8, confirmed: true, payload_base64: 'AAEC' });
      for (const c of [first, second, third]) expect((await waitFor(alice, eui, c.uid, ['Scheduled']))?.status).toBe('Scheduled');
      const listed = await list(alice, eui);
      expect(listed.map((c) => c.uid)).toEqual([third.uid, second.uid, first.uid]);
      expect(listed[2]).toEqual({ ...first, status: 'Scheduled' });
      expect(listed[1]).toMatchObject({
        status: 'Scheduled',
        network: 'Simulated',
        port: 10,
        payload_hex: '0100000078',
        payload_base64: 'AQAAAHg=',
        reason: null,
      });
      expect(listed[0]).toMatchObject({
        status: 'Scheduled',
        confirmed: 1,
        port: 8,
        payload_hex: '000102',
        payload_base64: 'AAEC',
        payload_ASCII: '\\x00\\x01\\x02',
      });
    });

    it('behaves like a class A network: a downlink waits until the device’s next uplink (Sent), a confirmed one is acknowledged by the uplink after', async () => {
      const eui = await device(alice);
      const first = await send(alice, eui, { port: 7, payload_hex: '01' });
      const second = await send(alice, eui, { port: 8, confirmed: true, payload_hex: '02' });
      for (const c of [first, second]) expect((await waitFor(alice, eui, c.uid, ['Scheduled']))?.status).toBe('Scheduled');
      // Nothing moves without an uplink (only an uplink's receive window moves them; had one moved
      // already, the first uplink below would move the second too).
      expect((await list(alice, eui)).map((c) => c.status)).toEqual(['Scheduled', 'Scheduled']);
      const statuses = async () => Object.fromEntries((await list(alice, eui)).map((c) => [c.uid, c.status]));
      // The network moves them just after the uplink is stored (not before its 202): wait for it.
      const settles = async (expected: Record<number, string>) => {
        await eventually(async () => JSON.stringify(await statuses()) === JSON.stringify(expected), { what: JSON.stringify(expected), timeoutMs: 5_000 }).catch(
          () => undefined, // the caller's expectation says what it got instead
        );
        return statuses();
      };

      await uplink(eui, 1);
      expect(await settles({ [first.uid]: 'Sent', [second.uid]: 'Scheduled' })).toEqual({ [first.uid]: 'Sent', [second.uid]: 'Scheduled' });
      // A redelivered uplink is no new receive window.
      expect(await uplink(eui, 1)).toMatchObject({ accepted: 0, duplicates: 1 });
      // Had the redelivery opened a window, the next uplink would acknowledge the second, not send it.
      expect(await statuses()).toEqual({ [first.uid]: 'Sent', [second.uid]: 'Scheduled' });
      await uplink(eui, 2);
      expect(await settles({ [first.uid]: 'Sent', [second.uid]: 'Sent' })).toEqual({ [first.uid]: 'Sent', [second.uid]: 'Sent' });
      await uplink(eui, 3);
      // The unconfirmed one stays Sent: nothing ever confirms it.
      expect(await settles({ [first.uid]: 'Sent', [second.uid]: 'Acknowledged' })).toEqual({ [first.uid]: 'Sent', [second.uid]: 'Acknowledged' });
      expect((await find(alice, eui, second.uid))?.reason).toBeNull();
    });

    it('a global ChirpStack network without an address fails the command with the reason', async () => {
      const eui = await device(alice, { network_ref: 3 });
      const { uid } = await send(alice, eui, { port: 5, payload_hex: '01' });
      const failed = await waitFor(alice, eui, uid, ['Failed']);
      expect(failed).toMatchObject({ status: 'Failed', reason: expect.stringMatching(/\S/) });
    });
  });

  describe('ChirpStack v4', () => {
    it('queues the downlink with the API key; txack and ack move the command to Sent and Acknowledged, never back', async () => {
      const cs = await fakeNetwork((_hit, res) => json(res, 200, { id: 'abc-123' }));
      const { eui } = await deviceOnNetwork(alice, { adapter: 'chirpstack', base_url: cs.url, api_key: 'cs-api-key-1' });
      const command = await send(alice, eui, { port: 5, confirmed: true, payload_hex: '0102' });
      expect(command.network).toEqual(expect.any(String));

      expect((await waitFor(alice, eui, command.uid, ['Scheduled']))?.status).toBe('Scheduled');
      expect(cs.hits).toHaveLength(1);
      const hit = cs.hits[0]!;
      expect(hit.method).toBe('POST');
      expect(hit.path).toBe(`/api/devices/${eui.toLowerCase()}/queue`);
      expect(hit.headers.authorization).toBe('Bearer cs-api-key-1');
      expect(hit.headers['content-type']).toMatch(/^application\/json/);
      expect(hit.body).toEqual({ queueItem: { confirmed: true, fPort: 5, data: 'AQI=' } });

      const event = (name: string, body: object) =>
        svc
          .http()
          .post(`/ingest/chirpstack?event=${name}`)
          .set(...secretHeader)
          .send(body);
      const deviceInfo = { devEui: eui.toLowerCase(), deviceName: 'dev', applicationId: 'a1' };
      // Another account's API token may not move Alice's command.
      const foreign = expectSuccess<IngestResult>(
        await svc
          .http()
          .post('/ingest/chirpstack?event=txack')
          .set(...bearer(carol.appToken))
          .send({ queueItemId: 'abc-123', deviceInfo }),
        202,
      );
      expect(foreign).toMatchObject({ accepted: 0, rejected: [expect.objectContaining({ code: 'NOT_FOUND' })] });
      expect((await find(alice, eui, command.uid))?.status).toBe('Scheduled');

      expect(
        expectSuccess<IngestResult>(await event('txack', { queueItemId: 'abc-123', deviceInfo, fCntDown: 4, time: new Date().toISOString() }), 202),
      ).toEqual({ accepted: 1, duplicates: 0, rejected: [] });
      expect((await find(alice, eui, command.uid))?.status).toBe('Sent');
      expect(expectSuccess<IngestResult>(await event('ack', { queueItemId: 'abc-123', deviceInfo, acknowledged: true, fCntDown: 4 }), 202)).toEqual({
        accepted: 1,
        duplicates: 0,
        rejected: [],
      });
      expect(await find(alice, eui, command.uid)).toMatchObject({ status: 'Acknowledged', reason: null });

      // A late or repeated event does not move it back.
      expect(expectSuccess<IngestResult>(await event('txack', { queueItemId: 'abc-123', deviceInfo }), 202)).toEqual({
        accepted: 0,
        duplicates: 1,
        rejected: [],
      });
      expect(expectSuccess<IngestResult>(await event('ack', { queueItemId: 'abc-123', deviceInfo, acknowledged: false }), 202)).toEqual({
        accepted: 0,
        duplicates: 1,
        rejected: [],
      });
      expect((await find(alice, eui, command.uid))?.status).toBe('Acknowledged');

      // An event for a queue item this service never queued.
      const unknown = expectSuccess<IngestResult>(await event('ack', { queueItemId: 'no-such-item', deviceInfo, acknowledged: true }), 202);
      expect(unknown).toMatchObject({ accepted: 0, duplicates: 0, rejected: [expect.objectContaining({ code: 'NOT_FOUND' })] });
      expect(cs.hits).toHaveLength(1);
    });

    it('an ack with acknowledged: false fails the command with a reason', async () => {
      const cs = await fakeNetwork((_hit, res) => json(res, 200, { id: 'nack-1' }));
      const { eui } = await deviceOnNetwork(alice, { adapter: 'chirpstack', base_url: `${cs.url}/`, api_key: 'k' });
      const { uid } = await send(alice, eui, { port: 6, confirmed: true, payload_base64: '/w==' });
      expect((await waitFor(alice, eui, uid, ['Scheduled']))?.status).toBe('Scheduled');
      expect(cs.hits[0]).toMatchObject({ path: `/api/devices/${eui.toLowerCase()}/queue`, body: { queueItem: { confirmed: true, fPort: 6, data: '/w==' } } });
      const res = await svc
        .http()
        .post('/ingest/chirpstack?event=ack')
        .set(...secretHeader)
        .send({ queueItemId: 'nack-1', acknowledged: false });
      expect(expectSuccess<IngestResult>(res, 202)).toEqual({ accepted: 1, duplicates: 0, rejected: [] });
      expect(await find(alice, eui, uid)).toMatchObject({ status: 'Failed', reason: expect.stringMatching(/\S/) });
    });
  });

  describe('The Things Stack v3', () => {
    const APP = 'dts-app-1';
    const WEBHOOK = 'dts-hook';
    const tts = (body: object) =>
      svc
        .http()
        .post('/ingest/ttn')
        .set(...secretHeader)
        .send(body);
    const endDevice = (eui: string) => ({ device_id: `eui-${eui.toLowerCase()}`, application_ids: { application_id: APP }, dev_eui: eui });

    it('pushes the downlink with our correlation id; downlink_sent and downlink_ack move it on, a late downlink_sent does not move it back', async () => {
      const stack = await fakeNetwork((_hit, res) => json(res, 200, {}));
      const { eui } = await deviceOnNetwork(
        alice,
        { adapter: 'ttn', base_url: stack.url, api_key: 'NNSXS.TEST-KEY', application_id: APP, webhook_id: WEBHOOK },
        DECODER.tracker,
      );
      const command = await send(alice, eui, { command: 'set_interval', params: { seconds: 3600 } });
      expect((await waitFor(alice, eui, command.uid, ['Scheduled']))?.status).toBe('Scheduled');

      expect(stack.hits).toHaveLength(1);
      const hit = stack.hits[0]!;
      expect(hit.method).toBe('POST');
      expect(hit.path).toBe(`/api/v3/as/applications/${APP}/webhooks/${WEBHOOK}/devices/eui-${eui.toLowerCase()}/down/push`);
      expect(hit.headers.authorization).toBe('Bearer NNSXS.TEST-KEY');
      const correlation = `dts:command:${command.uid}`;
      expect(hit.body).toEqual({
        downlinks: [
          {
            f_port: 10,
            frm_payload: 'AQAADhA=',
            confirmed: false,
            priority: expect.stringMatching(/^(LOWEST|LOW|BELOW_NORMAL|NORMAL|ABOVE_NORMAL|HIGH|HIGHEST)$/),
            correlation_ids: [correlation],
          },
        ],
      });

      // The correlation ids inside the event…
      const sent = {
        end_device_ids: endDevice(eui),
        correlation_ids: ['as:downlink:01HX'],
        received_at: new Date().toISOString(),
        downlink_sent: { f_port: 10, frm_payload: 'AQAADhA=', priority: 'NORMAL', correlation_ids: [correlation, 'as:downlink:01HX'] },
      };
      expect(expectSuccess<IngestResult>(await tts(sent), 202)).toEqual({ accepted: 1, duplicates: 0, rejected: [] });
      expect((await find(alice, eui, command.uid))?.status).toBe('Sent');
      // …or at the root.
      const ack = {
        end_device_ids: endDevice(eui),
        correlation_ids: [correlation, 'as:up:01HY'],
        received_at: new Date().toISOString(),
        downlink_ack: { f_port: 10, frm_payload: 'AQAADhA=' },
      };
      expect(expectSuccess<IngestResult>(await tts(ack), 202)).toEqual({ accepted: 1, duplicates: 0, rejected: [] });
      expect(await find(alice, eui, command.uid)).toMatchObject({ status: 'Acknowledged', reason: null });

      expect(expectSuccess<IngestResult>(await tts(sent), 202)).toEqual({ accepted: 0, duplicates: 1, rejected: [] });
      expect((await find(alice, eui, command.uid))?.status).toBe('Acknowledged');
      expect(stack.hits).toHaveLength(1);
    });

    it('downlink_failed and downlink_nack fail the command with a reason; unknown and foreign commands are rejected', async () => {
      const stack = await fakeNetwork((_hit, res) => json(res, 200, {}));
      const { eui } = await deviceOnNetwork(alice, { adapter: 'ttn', base_url: stack.url, api_key: 'NNSXS.K2', application_id: APP, webhook_id: WEBHOOK });
      const failing = await send(alice, eui, { port: 3, payload_hex: 'AA' });
      const nacked = await send(alice, eui, { port: 3, confirmed: true, payload_hex: 'BB' });
      for (const c of [failing, nacked]) expect((await waitFor(alice, eui, c.uid, ['Scheduled']))?.status).toBe('Scheduled');
      expect(stack.hits.map((h) => (h.body as { downlinks: { correlation_ids: string[] }[] }).downlinks[0]!.correlation_ids).sort()).toEqual(
        [[`dts:command:${failing.uid}`], [`dts:command:${nacked.uid}`]].sort(),
      );
      expect(stack.hits.every((h) => h.path === `/api/v3/as/applications/${APP}/webhooks/${WEBHOOK}/devices/eui-${eui.toLowerCase()}/down/push`)).toBe(true);

      const failed = {
        end_device_ids: endDevice(eui),
        correlation_ids: ['as:downlink:01HZ'],
        downlink_failed: {
          downlink: { f_port: 3, frm_payload: 'qg==', correlation_ids: [`dts:command:${failing.uid}`] },
          error: { namespace: 'pkg/networkserver', name: 'application_downlink_too_long', message_format: 'application downlink too long', code: 3 },
        },
      };
      expect(expectSuccess<IngestResult>(await tts(failed), 202)).toEqual({ accepted: 1, duplicates: 0, rejected: [] });
      expect(await find(alice, eui, failing.uid)).toMatchObject({ status: 'Failed', reason: expect.stringMatching(/\S/) });

      const nack = {
        end_device_ids: endDevice(eui),
        correlation_ids: [`dts:command:${nacked.uid}`],
        downlink_nack: { f_port: 3, frm_payload: 'uw==', confirmed: true },
      };
      expect(expectSuccess<IngestResult>(await tts(nack), 202)).toEqual({ accepted: 1, duplicates: 0, rejected: [] });
      expect(await find(alice, eui, nacked.uid)).toMatchObject({ status: 'Failed', reason: expect.stringMatching(/\S/) });

      // A late downlink_sent does not revive a failed command.
      expect(
        expectSuccess<IngestResult>(await tts({ end_device_ids: endDevice(eui), correlation_ids: [`dts:command:${failing.uid}`], downlink_sent: {} }), 202),
      ).toEqual({ accepted: 0, duplicates: 1, rejected: [] });
      expect((await find(alice, eui, failing.uid))?.status).toBe('Failed');

      const unknown = expectSuccess<IngestResult>(
        await tts({ end_device_ids: endDevice(eui), correlation_ids: ['dts:command:999999'], downlink_ack: {} }),
        202,
      );
      expect(unknown).toMatchObject({ accepted: 0, rejected: [expect.objectContaining({ code: 'NOT_FOUND' })] });
      const other = await send(alice, eui, { port: 3, payload_hex: 'CC' });
      expect((await waitFor(alice, eui, other.uid, ['Scheduled']))?.status).toBe('Scheduled');
      const foreign = await svc
        .http()
        .post('/ingest/ttn')
        .set(...bearer(carol.appToken))
        .send({ correlation_ids: [`dts:command:${other.uid}`], downlink_sent: {} });
      expect(expectSuccess<IngestResult>(foreign, 202)).toMatchObject({ accepted: 0, rejected: [expect.objectContaining({ code: 'NOT_FOUND' })] });
      expect((await find(alice, eui, other.uid))?.status).toBe('Scheduled');
    });
  });

  describe('hand-off failures', () => {
    it('a 401 from the network fails the command at once, with the status in the reason, after one request', async () => {
      const net = await fakeNetwork((_hit, res) => json(res, 401, { error: 'authentication failed', code: 16 }));
      const { eui } = await deviceOnNetwork(alice, { adapter: 'chirpstack', base_url: net.url, api_key: 'wrong-key' });
      const { uid } = await send(alice, eui, { port: 5, payload_hex: '01' });
      const failed = await waitFor(alice, eui, uid, ['Failed', 'Scheduled']);
      expect(failed).toMatchObject({ status: 'Failed', reason: expect.stringContaining('401') });
      // The job has ended, not waiting out a backoff: no retry can come.
      await dispatchEnded(uid);
      expect(net.hits).toHaveLength(1);
      expect(net.hits[0]!.headers.authorization).toBe('Bearer wrong-key');
    });

    it('a 500 is transient: the hand-off is retried with backoff, the command stays Created meanwhile, then Scheduled once', async () => {
      const net = await fakeNetwork((_hit, res, n) => (n <= 2 ? json(res, 500, { error: 'internal' }) : json(res, 200, { id: 'after-retries' })));
      const { eui } = await deviceOnNetwork(alice, { adapter: 'chirpstack', base_url: net.url, api_key: 'k' });
      const { uid } = await send(alice, eui, { port: 5, payload_hex: '01' });
      expect(await waitUntil(() => net.hits.length >= 1)).toBe(true);
      const firstAt = Date.now();
      expect(await waitUntil(() => net.hits.length >= 2, 8_000)).toBe(true);
      expect(Date.now() - firstAt).toBeGreaterThanOrEqual(1_000); // a backoff, not an immediate loop
      expect(await find(alice, eui, uid)).toMatchObject({ status: 'Created', reason: null });
      const scheduled = await waitFor(alice, eui, uid, ['Scheduled', 'Failed'], 15_000);
      expect(scheduled).toMatchObject({ status: 'Scheduled', reason: null });
      await dispatchEnded(uid);
      expect(net.hits).toHaveLength(3);
      expect(new Set(net.hits.map((h) => JSON.stringify(h.body))).size).toBe(1);
    }, 30_000);

    it('a refused connection is transient: retried until the network is up, then delivered once', async () => {
      const probe = await fakeNetwork(() => undefined);
      const port = probe.port;
      await probe.close();
      const { eui } = await deviceOnNetwork(alice, { adapter: 'chirpstack', base_url: `http://127.0.0.1:${port}`, api_key: 'k' });
      const { uid } = await send(alice, eui, { port: 5, payload_hex: '01' });
      const queue = svc.app.get<Queue>(getQueueToken(QUEUES.commandDispatch));
      await eventually(async () => ((await queue.getJob(commandDispatchJobId(uid)))?.attemptsMade ?? 0) >= 1, {
        what: 'a first refused attempt',
        timeoutMs: 8_000,
      });
      expect(await find(alice, eui, uid)).toMatchObject({ status: 'Created', reason: null });
      const net = await fakeNetwork((_hit, res) => json(res, 200, { id: 'back-up' }), port);
      expect((await waitFor(alice, eui, uid, ['Scheduled', 'Failed'], 15_000))?.status).toBe('Scheduled');
      expect(net.hits).toHaveLength(1);
    }, 30_000);

    it('a network that never answers times out and is retried', async () => {
      let held: ServerResponse | null = null;
      const net = await fakeNetwork((_hit, res, n) => {
        if (n === 1)
          held = res; // never answered
        else json(res, 200, { id: 'after-timeout' });
      });
      const { eui } = await deviceOnNetwork(alice, { adapter: 'chirpstack', base_url: net.url, api_key: 'k' });
      const { uid } = await send(alice, eui, { port: 5, payload_hex: '01' });
      expect(await waitUntil(() => net.hits.length >= 1)).toBe(true);
      // Real time by nature: while the network holds its answer (until the client's timeout, NETWORK_TIMEOUT_MS), the
      // command stays Created and nothing is sent beside it; half a second shows an eager retry.
      await pause(500);
      expect(await find(alice, eui, uid)).toMatchObject({ status: 'Created', reason: null });
      expect(net.hits).toHaveLength(1);
      expect(await waitUntil(() => net.hits.length >= 2, 20_000)).toBe(true);
      expect((await waitFor(alice, eui, uid, ['Scheduled', 'Failed']))?.status).toBe('Scheduled');
      expect(held).not.toBeNull();
    }, 40_000);

    it('a redirect is not followed: the command fails, and the redirect’s target is never called', async () => {
      const canary = await fakeNetwork((_hit, res) => json(res, 200, { id: 'canary' }));
      const net = await fakeNetwork((_hit, res) => res.writeHead(302, { Location: `${canary.url}/api/devices/x/queue` }).end());
      const { eui } = await deviceOnNetwork(alice, { adapter: 'chirpstack', base_url: net.url, api_key: 'k' });
      const { uid } = await send(alice, eui, { port: 5, payload_hex: '01' });
      const failed = await waitFor(alice, eui, uid, ['Failed', 'Scheduled']);
      expect(failed).toMatchObject({ status: 'Failed', reason: expect.stringContaining('302') });
      await dispatchEnded(uid);
      expect(net.hits).toHaveLength(1);
      expect(canary.hits).toHaveLength(0);
    });

    it('a ChirpStack answer without a queue item id fails the command', async () => {
      const net = await fakeNetwork((_hit, res) => json(res, 200, {}));
      const { eui } = await deviceOnNetwork(alice, { adapter: 'chirpstack', base_url: net.url, api_key: 'k' });
      const { uid } = await send(alice, eui, { port: 5, payload_hex: '01' });
      expect(await waitFor(alice, eui, uid, ['Failed', 'Scheduled'])).toMatchObject({ status: 'Failed', reason: expect.stringMatching(/\S/) });
    });
  });

  describe('DELETE /user/device/command/{eui}/{uid}', () => {
    const insertCreated = async (eui: string, who: Caller, networkRef: number | null = SIMULATED, createdAt = 'now()') => {
      const [{ uid: deviceUid }] = await db.query('SELECT uid FROM devices WHERE eui = $1', [eui]);
      const [{ uid }] = await db.query(
        `INSERT INTO commands (device_id, created_by, status, network_ref, confirmed, port, payload, created_at)
         VALUES ($1, $2, 'Created', $3, false, 7, '\\xcafe'::bytea, ${createdAt}) RETURNING uid`,
        [deviceUid, who.account.id, networkRef],
      );
      return uid as number;
    };

    it('cancels a Created command (a row without a dispatch job): Cancelled, then 409 COMMAND_NOT_CANCELLABLE', async () => {
      const eui = await device(alice);
      const uid = await insertCreated(eui, alice);
      expect(await find(alice, eui, uid)).toMatchObject({
        status: 'Created',
        port: 7,
        payload_hex: 'CAFE',
        payload_base64: 'yv4=',
        payload_ASCII: '\\xca\\xfe',
      });
      expect(expectSuccess(await as(alice).delete(`/user/device/command/${eui.toLowerCase()}/${uid}`))).toEqual({ uid, status: 'Cancelled' });
      expect(await find(alice, eui, uid)).toMatchObject({ status: 'Cancelled' });
      expectError(await as(alice).delete(`/user/device/command/${eui}/${uid}`), 409, 'COMMAND_NOT_CANCELLABLE');
      expect(await find(alice, eui, uid)).toMatchObject({ status: 'Cancelled' });
    });

    it('cancels a command while the network is still being called; its late answer does not move it on, and it is taken back out of the queue', async () => {
      let held: ServerResponse | null = null;
      const net = await fakeNetwork((hit, res) => {
        if (hit.method === 'POST') held = res;
        else if (hit.method === 'GET') json(res, 200, { totalCount: 1, result: [{ id: 'too-late', fPort: 5, data: 'AQ==', isPending: false }] });
        else json(res, 200, {});
      });
      const { eui } = await deviceOnNetwork(alice, { adapter: 'chirpstack', base_url: net.url, api_key: 'k' });
      const { uid } = await send(alice, eui, { port: 5, payload_hex: '01' });
      expect(await waitUntil(() => held !== null)).toBe(true);
      expect(expectSuccess(await as(alice).delete(`/user/device/command/${eui}/${uid}`))).toEqual({ uid, status: 'Cancelled' });
      json(held!, 200, { id: 'too-late' });
      expect(await waitUntil(() => net.hits.length >= 3)).toBe(true);
      // The dispatcher found it Cancelled and took what the network had queued back out.
      expect(net.hits.map((h) => `${h.method} ${h.path}`)).toEqual([
        `POST /api/devices/${eui.toLowerCase()}/queue`,
        `GET /api/devices/${eui.toLowerCase()}/queue`,
        `DELETE /api/devices/${eui.toLowerCase()}/queue`,
      ]);
      expect((await find(alice, eui, uid))?.status).toBe('Cancelled');
      const late = await svc
        .http()
        .post('/ingest/chirpstack?event=txack')
        .set(...secretHeader)
        .send({ queueItemId: 'too-late' });
      expect(expectSuccess<IngestResult>(late, 202).accepted).toBe(0);
      expect((await find(alice, eui, uid))?.status).toBe('Cancelled');
      expect(net.hits).toHaveLength(3);
    });

    it('cancels a command just created, whether still Created or already in the simulated network’s queue', async () => {
      const eui = await device(alice);
      const { uid } = await send(alice, eui, { port: 5, payload_hex: '01' });
      expect(expectSuccess(await as(alice).delete(`/user/device/command/${eui}/${uid}`))).toEqual({ uid, status: 'Cancelled' });
      // Its dispatch job has run (or found it Cancelled): nothing can move it now.
      await dispatchEnded(uid);
      expect((await find(alice, eui, uid))?.status).toBe('Cancelled');
      const queued = await send(alice, eui, { port: 5, payload_hex: '02' });
      expect((await waitFor(alice, eui, queued.uid, ['Scheduled']))?.status).toBe('Scheduled');
      expect(expectSuccess(await as(alice).delete(`/user/device/command/${eui}/${queued.uid}`))).toEqual({ uid: queued.uid, status: 'Cancelled' });
      // Cancelled, it is not sent at the next uplink: the one queued after it is, once that window is done.
      const later = await send(alice, eui, { port: 5, payload_hex: '03' });
      expect((await waitFor(alice, eui, later.uid, ['Scheduled']))?.status).toBe('Scheduled');
      await uplink(eui, 1);
      expect((await waitFor(alice, eui, later.uid, ['Sent']))?.status).toBe('Sent');
      expect((await find(alice, eui, queued.uid))?.status).toBe('Cancelled');
    });

    it('refuses a command handed to the device (409 saying so), an unknown uid, another device’s command and a uid that is no integer', async () => {
      const eui = await device(alice);
      const other = await device(alice);
      const { uid } = await send(alice, eui, { port: 5, payload_hex: '01' });
      expect((await waitFor(alice, eui, uid, ['Scheduled']))?.status).toBe('Scheduled');
      await uplink(eui, 1);
      expect((await waitFor(alice, eui, uid, ['Sent']))?.status).toBe('Sent');
      const refused = expectError(await as(alice).delete(`/user/device/command/${eui}/${uid}`), 409, 'COMMAND_NOT_CANCELLABLE', 'uid');
      expect(refused[0]!.message).toBe('the command is Sent: it was already handed to the device');
      expectError(await as(alice).delete(`/user/device/command/${eui}/99999999`), 404, 'NOT_FOUND');
      expectError(await as(alice).delete(`/user/device/command/${other}/${uid}`), 404, 'NOT_FOUND');
      expectError(await as(alice).delete(`/user/device/command/${eui}/abc`), 400, 'VALIDATION_FAILED', 'uid');
      expect((await find(alice, eui, uid))?.status).toBe('Sent');
    });

    describe('taking a downlink back out of the network’s queue', () => {
      interface CsItem {
        id: string;
        devEui: string;
        confirmed: boolean;
        fPort: number;
        data: string;
        isPending: boolean;
        fCntDown: number;
        isEncrypted: boolean;
      }
      /** ChirpStack v4's device queue API as its DeviceService answers: list, flush, enqueue (new ids). */
      const chirpstack = async () => {
        const queue: CsItem[] = [];
        let next = 1;
        let failing: number | null = null;
        const net = await fakeNetwork((hit, res) => {
          if (failing !== null) return json(res, failing, { error: 'unavailable', code: 14 });
          if (hit.method === 'GET') return json(res, 200, { totalCount: queue.length, result: queue });
          if (hit.method === 'DELETE') {
            queue.length = 0;
            return json(res, 200, {});
          }
          const item = (hit.body as { queueItem: Partial<CsItem> }).queueItem;
          const id = `cs-${next++}`;
          queue.push({
            id,
            devEui: item.devEui ?? '',
            confirmed: item.confirmed ?? false,
            fPort: item.fPort ?? 0,
            data: item.data ?? '',
            isPending: false,
            fCntDown: 0,
            isEncrypted: false,
          });
          json(res, 200, { id });
        });
        return { ...net, queue, fail: (status: number | null) => (failing = status) };
      };
      const scheduled = async (eui: string, body: object) => {
        const c = await send(alice, eui, body);
        expect((await waitFor(alice, eui, c.uid, ['Scheduled', 'Failed']))?.status).toBe('Scheduled');
        return c;
      };
      const statusOf = async (eui: string, uid: number) => (await find(alice, eui, uid))?.status;

      it('ChirpStack: one is taken out by listing, flushing and refilling the queue in order; the others follow their new ids', async () => {
        const cs = await chirpstack();
        const { eui } = await deviceOnNetwork(alice, { adapter: 'chirpstack', base_url: cs.url, api_key: 'cs-queue-key' });
        const dev = eui.toLowerCase();
        const a = await scheduled(eui, { port: 5, payload_hex: '0A' });
        const b = await scheduled(eui, { port: 5, payload_hex: '0B' });
        const c = await scheduled(eui, { port: 6, confirmed: true, payload_hex: '0C' });
        // Another application's downlink in the same queue is put back too.
        cs.queue.push({ id: 'foreign-1', devEui: dev, confirmed: false, fPort: 9, data: '/w==', isPending: false, fCntDown: 0, isEncrypted: false });
        const before = cs.hits.length;
        expect(expectSuccess(await as(alice).delete(`/user/device/command/${eui}/${b.uid}`))).toEqual({ uid: b.uid, status: 'Cancelled' });
        const calls = cs.hits.slice(before);
        const queuePath = `/api/devices/${dev}/queue`;
        expect(calls.map((h) => `${h.method} ${h.path}`)).toEqual([
          `GET ${queuePath}`,
          `DELETE ${queuePath}`,
          `POST ${queuePath}`,
          `POST ${queuePath}`,
          `POST ${queuePath}`,
        ]);
        expect(calls.every((h) => h.headers.authorization === 'Bearer cs-queue-key')).toBe(true);
        expect(calls.slice(2).map((h) => h.body)).toEqual([
          { queueItem: { devEui: dev, confirmed: false, fPort: 5, data: 'Cg==' } },
          { queueItem: { devEui: dev, confirmed: true, fPort: 6, data: 'DA==' } },
          { queueItem: { devEui: dev, confirmed: false, fPort: 9, data: '/w==' } },
        ]);
        expect(cs.queue.map((i) => i.data)).toEqual(['Cg==', 'DA==', '/w==']);
        expect([await statusOf(eui, a.uid), await statusOf(eui, b.uid), await statusOf(eui, c.uid)]).toEqual(['Scheduled', 'Cancelled', 'Scheduled']);
        // The refilled ones are named by their new ids in ChirpStack's events.
        const txack = await svc
          .http()
          .post('/ingest/chirpstack?event=txack')
          .set(...secretHeader)
          .send({ queueItemId: cs.queue[1]!.id });
        expect(expectSuccess<IngestResult>(txack, 202)).toEqual({ accepted: 1, duplicates: 0, rejected: [] });
        expect(await statusOf(eui, c.uid)).toBe('Sent');
        expectError(await as(alice).delete(`/user/device/command/${eui}/${b.uid}`), 409, 'COMMAND_NOT_CANCELLABLE', 'uid');
      });

      it('ChirpStack: a downlink awaiting its acknowledgement is the device’s, and while it waits nothing is flushed; one the queue no longer holds is 409', async () => {
        const cs = await chirpstack();
        const { eui } = await deviceOnNetwork(alice, { adapter: 'chirpstack', base_url: cs.url, api_key: 'k' });
        const a = await scheduled(eui, { port: 5, confirmed: true, payload_hex: '0A' });
        const b = await scheduled(eui, { port: 5, payload_hex: '0B' });
        cs.queue[0]!.isPending = true;
        const before = cs.hits.length;
        const pending = expectError(await as(alice).delete(`/user/device/command/${eui}/${a.uid}`), 409, 'COMMAND_NOT_CANCELLABLE', 'uid');
        expect(pending[0]!.message).toMatch(/awaits the device’s acknowledgement/);
        const behind = expectError(await as(alice).delete(`/user/device/command/${eui}/${b.uid}`), 409, 'COMMAND_NOT_CANCELLABLE', 'uid');
        expect(behind[0]!.message).toMatch(/flushing the queue/);
        expect(cs.hits.slice(before).map((h) => h.method)).toEqual(['GET', 'GET']);
        expect(cs.queue).toHaveLength(2);
        // Transmitted: the queue holds neither any more.
        cs.queue.length = 0;
        const gone = expectError(await as(alice).delete(`/user/device/command/${eui}/${b.uid}`), 409, 'COMMAND_NOT_CANCELLABLE', 'uid');
        expect(gone[0]!.message).toMatch(/no longer holds it: it was handed to the device/);
        expect([await statusOf(eui, a.uid), await statusOf(eui, b.uid)]).toEqual(['Scheduled', 'Scheduled']);
      });

      it('ChirpStack unreachable or failing: 503 with Retry-After and nothing cancelled; a refusal (401) is 409 saying so', async () => {
        const cs = await chirpstack();
        const { eui } = await deviceOnNetwork(alice, { adapter: 'chirpstack', base_url: cs.url, api_key: 'k' });
        const a = await scheduled(eui, { port: 5, payload_hex: '0A' });
        cs.fail(503);
        const down = await as(alice).delete(`/user/device/command/${eui}/${a.uid}`);
        expect(expectError(down, 503, 'UNAVAILABLE', 'uid')[0]!.message).toMatch(/503/);
        expect(Number(down.headers['retry-after'])).toBeGreaterThan(0);
        cs.fail(401);
        expect(expectError(await as(alice).delete(`/user/device/command/${eui}/${a.uid}`), 409, 'COMMAND_NOT_CANCELLABLE')[0]!.message).toMatch(/401/);
        expect(await statusOf(eui, a.uid)).toBe('Scheduled');
        cs.fail(null);
        expect(expectSuccess(await as(alice).delete(`/user/device/command/${eui}/${a.uid}`))).toEqual({ uid: a.uid, status: 'Cancelled' });
        expect(cs.queue).toEqual([]);
      });

      it('The Things Stack: the queue is listed and replaced without it, the others keeping their correlation ids', async () => {
        const APP = 'dts-app-2';
        const queue: Record<string, unknown>[] = [];
        const stack = await fakeNetwork((hit, res) => {
          if (hit.path.endsWith('/down/push')) {
            // Listed as the Application Server keeps them: with the session key id and frame counter it assigned.
            for (const d of (hit.body as { downlinks: Record<string, unknown>[] }).downlinks)
              queue.push({ ...d, session_key_id: 'AXBSH1Pk6Z0G166z', f_cnt: 40 + queue.length });
            return json(res, 200, {});
          }
          if (hit.method === 'GET' && hit.path.endsWith('/down')) return json(res, 200, { downlinks: queue });
          if (hit.path.endsWith('/down/replace')) {
            queue.splice(0, queue.length, ...(hit.body as { downlinks: Record<string, unknown>[] }).downlinks);
            return json(res, 200, {});
          }
          json(res, 404, { code: 5, message: 'not found' });
        });
        const { eui } = await deviceOnNetwork(alice, { adapter: 'ttn', base_url: stack.url, api_key: 'NNSXS.QUEUE', application_id: APP, webhook_id: 'hook' });
        const device = `/api/v3/as/applications/${APP}/devices/eui-${eui.toLowerCase()}`;
        const a = await scheduled(eui, { port: 3, payload_hex: 'AA' });
        const b = await scheduled(eui, { port: 4, confirmed: true, payload_hex: 'BB' });
        queue.push({
          f_port: 2,
          frm_payload: 'AQ==',
          priority: 'NORMAL',
          correlation_ids: ['as:downlink:01FOREIGN'],
          session_key_id: 'AXBSH1Pk6Z0G166z',
          f_cnt: 50,
        });
        const before = stack.hits.length;
        expect(expectSuccess(await as(alice).delete(`/user/device/command/${eui}/${a.uid}`))).toEqual({ uid: a.uid, status: 'Cancelled' });
        const calls = stack.hits.slice(before);
        expect(calls.map((h) => `${h.method} ${h.path}`)).toEqual([`GET ${device}/down`, `POST ${device}/down/replace`]);
        expect(calls.every((h) => h.headers.authorization === 'Bearer NNSXS.QUEUE')).toBe(true);
        expect(calls[1]!.body).toEqual({
          downlinks: [
            { f_port: 4, frm_payload: 'uw==', confirmed: true, priority: 'NORMAL', correlation_ids: [`dts:command:${b.uid}`] },
            { f_port: 2, frm_payload: 'AQ==', priority: 'NORMAL', correlation_ids: ['as:downlink:01FOREIGN'] },
          ],
        });
        expect(await statusOf(eui, b.uid)).toBe('Scheduled');
        // Transmitted meanwhile: the queue no longer holds it.
        queue.length = 0;
        expect(expectError(await as(alice).delete(`/user/device/command/${eui}/${b.uid}`), 409, 'COMMAND_NOT_CANCELLABLE')[0]!.message).toMatch(
          /handed to the device/,
        );
        expect(stack.hits.slice(before + 2).map((h) => h.method)).toEqual(['GET']);
      });

      it('DELETE /user/device/command/{eui} cancels every command that has not reached the device, saying which it could not', async () => {
        // The simulated network: the one sent at the uplink stays; the queued ones are cancelled.
        const sim = await device(alice);
        const sent = await send(alice, sim, { port: 1, payload_hex: '01' });
        for (const c of [sent]) expect((await waitFor(alice, sim, c.uid, ['Scheduled']))?.status).toBe('Scheduled');
        await uplink(sim, 1);
        expect((await waitFor(alice, sim, sent.uid, ['Sent']))?.status).toBe('Sent');
        const q1 = await send(alice, sim, { port: 1, payload_hex: '02' });
        const q2 = await send(alice, sim, { port: 1, payload_hex: '03' });
        const flushed = expectSuccess<{ devEUI: string; cancelled: number[]; kept: unknown[] }>(await as(alice).delete(`/user/device/command/${sim}`));
        expect(flushed).toEqual({ devEUI: sim, cancelled: [q1.uid, q2.uid], kept: [] });
        expect((await list(alice, sim)).map((c) => c.status)).toEqual(['Cancelled', 'Cancelled', 'Sent']);
        expect(expectSuccess(await as(alice).delete(`/user/device/command/${sim}`))).toEqual({ devEUI: sim, cancelled: [], kept: [] });

        // ChirpStack: one flush for all of ours, the other application's put back.
        const cs = await chirpstack();
        const { eui } = await deviceOnNetwork(alice, { adapter: 'chirpstack', base_url: cs.url, api_key: 'k' });
        const a = await scheduled(eui, { port: 5, payload_hex: '0A' });
        const b = await scheduled(eui, { port: 5, payload_hex: '0B' });
        cs.queue.push({
          id: 'foreign-2',
          devEui: eui.toLowerCase(),
          confirmed: false,
          fPort: 9,
          data: '/w==',
          isPending: false,
          fCntDown: 0,
          isEncrypted: false,
        });
        const before = cs.hits.length;
        expect(expectSuccess(await as(alice).delete(`/user/device/command/${eui}`))).toEqual({ devEUI: eui, cancelled: [a.uid, b.uid], kept: [] });
        expect(cs.hits.slice(before).map((h) => h.method)).toEqual(['GET', 'DELETE', 'POST']);
        expect(cs.queue.map((i) => i.data)).toEqual(['/w==']);

        // A network that cannot be asked: each is kept, saying why; the others are still cancelled.
        const c = await scheduled(eui, { port: 5, payload_hex: '0C' });
        cs.fail(500);
        const kept = expectSuccess<{ cancelled: number[]; kept: { uid: number; status: string; reason: string }[] }>(
          await as(alice).delete(`/user/device/command/${eui}`),
        );
        expect(kept).toEqual({ devEUI: eui, cancelled: [], kept: [{ uid: c.uid, status: 'Scheduled', reason: expect.stringMatching(/500/) }] });
        cs.fail(null);
      });

      it('DELETE /user/device/command/{eui}: bad EUI 400, no credentials 401, another account 404, nothing cancelled', async () => {
        const eui = await device(alice);
        const q = await send(alice, eui, { port: 1, payload_hex: '01' });
        expectError(await as(alice).delete('/user/device/command/not-an-eui'), 400, 'VALIDATION_FAILED', 'eui');
        expectError(await svc.http().delete(`/user/device/command/${eui}`), 401, 'AUTH_REQUIRED');
        expectError(await as(bob).delete(`/user/device/command/${eui}`), 404, 'NOT_FOUND');
        expectError(await as(alice).delete(`/user/device/command/${newEui()}`), 404, 'NOT_FOUND');
        expect(['Created', 'Scheduled']).toContain(await statusOf(eui, q.uid));
      });
    });

    describe('the requeue of a command whose dispatch job was lost', () => {
      const requeueNow = () => svc.app.get<Queue>(getQueueToken(QUEUES.commandRequeue)).add('command.requeue', {});

      it('dispatches a Created command left without a job (simulated network), once', async () => {
        const eui = await device(alice);
        const uid = await insertCreated(eui, alice, SIMULATED, "now() - interval '1 minute'");
        await Promise.all([requeueNow(), requeueNow()]);
        const scheduled = await waitFor(alice, eui, uid, ['Scheduled']);
        expect(scheduled).toMatchObject({ status: 'Scheduled', payload_hex: 'CAFE', reason: null });
        expect((await list(alice, eui)).filter((c) => c.uid === uid)).toHaveLength(1);
      });

      it('hands it to the account’s network exactly once, even when requeued again', async () => {
        const net = await fakeNetwork((_hit, res) => setTimeout(() => json(res, 200, { id: 'requeued-1' }), 300));
        const { eui, networkUid } = await deviceOnNetwork(alice, { adapter: 'chirpstack', base_url: net.url, api_key: 'requeue-key' });
        const uid = await insertCreated(eui, alice, networkUid, "now() - interval '1 minute'");
        await requeueNow();
        expect(await waitUntil(() => net.hits.length >= 1)).toBe(true);
        await requeueNow(); // while the first hand-off is in flight
        expect((await waitFor(alice, eui, uid, ['Scheduled', 'Failed']))?.status).toBe('Scheduled');
        const last = await requeueNow(); // and after it
        // That requeue has run, and the dispatch it may have queued has ended: the count is final.
        await eventually(async () => (await last.getState()) === 'completed', { what: 'the last requeue to run' });
        await dispatchEnded(uid);
        expect(net.hits).toHaveLength(1);
        expect(net.hits[0]).toMatchObject({
          path: `/api/devices/${eui.toLowerCase()}/queue`,
          body: { queueItem: { confirmed: false, fPort: 7, data: 'yv4=' } },
        });
        expect(net.hits[0]!.headers.authorization).toBe('Bearer requeue-key');
        const txack = await svc
          .http()
          .post('/ingest/chirpstack?event=txack')
          .set(...secretHeader)
          .send({ queueItemId: 'requeued-1' });
        expect(expectSuccess<IngestResult>(txack, 202)).toEqual({ accepted: 1, duplicates: 0, rejected: [] });
        expect((await find(alice, eui, uid))?.status).toBe('Sent');
      });
    });
  });
});
