import { getDataSourceToken } from '@nestjs/typeorm';
import { randomBytes } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { accountWithCredentials, bearer } from './support/accounts';
import { expectError, expectSuccess } from './support/envelope';
import { startTestService, type TestService } from './support/harness';

/**
 * The datamodel enumerations (docs/api.md §8, §15,
 * §9, §11) and GET /user/device/data/type/all.
 */

type Account = Awaited<ReturnType<typeof accountWithCredentials>>;

interface NetworkEntry {
  uid: number;
  name: string;
  description: string;
  interface: string | null;
  type_ref: number;
}
interface DataTypeEntry {
  uid: number;
  label: string;
  alias: string;
  unit: string;
}

const NETWORK_TYPES = ['LoRaWAN', 'Satellite', 'Cellular', 'Wonderland App', 'GPRS', 'Sigfox', 'Integrator'];
const DEVICE_TYPES = ['Tracker', 'Camera', 'Sensor', 'Actuator'];
const DATA_TYPE_ALIASES = ['temperature', 'humidity', 'battery_voltage', 'battery_percent', 'LAT', 'LON', 'ALT', 'RSSI', 'SNR'];

const integer = () => expect.any(Number);
const isInt = (v: unknown) => typeof v === 'number' && Number.isInteger(v);
const stringOrNull = (v: unknown) => v === null || typeof v === 'string';

const randomEui = () => randomBytes(8).toString('hex').toUpperCase();

/** Every route of this file that needs credentials, with an id that exists where one is taken. */
const ROUTES = [
  '/datamodel',
  '/datamodel/network',
  '/datamodel/network/type',
  '/datamodel/network/1',
  '/datamodel/network/by_type/1',
  '/datamodel/decoder',
  '/datamodel/decoder/1',
  '/datamodel/data/type/all',
  '/datamodel/data/type/1',
  '/datamodel/icon',
  '/datamodel/device/type',
  '/user/device/data/type/all',
];

describe('datamodel', () => {
  let svc: TestService;
  let ds: DataSource;
  let alice: Account;
  let bob: Account;

  const get = (path: string, who: Account) =>
    svc
      .http()
      .get(path)
      .set(...bearer(who.appToken));

  beforeAll(async () => {
    svc = await startTestService();
    ds = svc.app.get<DataSource>(getDataSourceToken());
    alice = await accountWithCredentials(svc, 'alice');
    bob = await accountWithCredentials(svc, 'bob');
  });
  afterAll(() => svc?.close());

  describe('credentials', () => {
    it.each(ROUTES)('GET %s without credentials is 401 AUTH_REQUIRED', async (path) => {
      expectError(await svc.http().get(path), 401, 'AUTH_REQUIRED');
    });

    it.each(ROUTES)('GET %s answers with a session cookie and with a token alike', async (path) => {
      const viaCookie = expectSuccess(await svc.http().get(path).set('Cookie', alice.cookie));
      expect(expectSuccess(await get(path, alice))).toEqual(viaCookie);
    });
  });

  describe('GET /datamodel/network/type', () => {
    it('lists exactly the seeded network types, each {uid, type}', async () => {
      const res = await get('/datamodel/network/type', alice);
      const data = expectSuccess<{ uid: number; type: string }[]>(res);
      expect(res.body.meta).toEqual([]);
      expect(res.body.messages).toEqual([]);
      for (const t of data) expect(t).toEqual({ uid: integer(), type: expect.any(String) });
      expect(data.every((t) => isInt(t.uid))).toBe(true);
      expect(data.map((t) => t.type).sort()).toEqual([...NETWORK_TYPES].sort());
      expect(new Set(data.map((t) => t.uid)).size).toBe(data.length);
    });
  });

  describe('GET /datamodel/network', () => {
    it('lists the global networks with exactly the members docs/api.md lists', async () => {
      const data = expectSuccess<NetworkEntry[]>(await get('/datamodel/network', alice));
      expect(data.length).toBeGreaterThanOrEqual(3);
      const types = expectSuccess<{ uid: number }[]>(await get('/datamodel/network/type', alice)).map((t) => t.uid);
      for (const n of data) {
        expect(n).toEqual({ uid: integer(), name: expect.any(String), description: expect.any(String), interface: n.interface, type_ref: integer() });
        expect(isInt(n.uid) && isInt(n.type_ref)).toBe(true);
        expect(stringOrNull(n.interface)).toBe(true);
        expect(types).toContain(n.type_ref);
      }
      const names = data.map((n) => n.name);
      expect(names).toEqual(expect.arrayContaining(['The Things Stack', 'ChirpStack']));
      expect(names.some((name) => /simulat/i.test(name))).toBe(true);
    });

    it('shows a network owned by an account to that account only', async () => {
      const rows: { uid: number }[] = await ds.query(
        `INSERT INTO networks (name, description, interface, type_ref, adapter, account_id) VALUES ($1, $2, 'REST', 7, 'rest', $3) RETURNING uid`,
        ['Alice integrator', 'Alice’s own integrator', alice.account.id],
      );
      const uid = rows[0]!.uid;
      const mine = expectSuccess<NetworkEntry[]>(await get('/datamodel/network', alice));
      expect(mine.find((n) => n.uid === uid)).toEqual({ uid, name: 'Alice integrator', description: 'Alice’s own integrator', interface: 'REST', type_ref: 7 });
      expect(expectSuccess(await get(`/datamodel/network/${uid}`, alice))).toEqual({
        uid,
        name: 'Alice integrator',
        description: 'Alice’s own integrator',
        interface: 'REST',
        type_ref: 7,
        lorawan_net_id: null,
      });

      const theirs = expectSuccess<NetworkEntry[]>(await get('/datamodel/network', bob));
      expect(theirs.map((n) => n.uid)).not.toContain(uid);
      expect(theirs.map((n) => n.name)).not.toContain('Alice integrator');
      expectError(await get(`/datamodel/network/${uid}`, bob), 404, 'NOT_FOUND');
      // Both still see the global ones.
      expect(theirs.map((n) => n.name)).toEqual(expect.arrayContaining(['The Things Stack', 'ChirpStack']));
    });
  });

  describe('GET /datamodel/network/{uid}', () => {
    it('returns each listed network with lorawan_net_id added', async () => {
      const list = expectSuccess<NetworkEntry[]>(await get('/datamodel/network', alice));
      for (const n of list) {
        const one = expectSuccess<NetworkEntry & { lorawan_net_id: unknown }>(await get(`/datamodel/network/${n.uid}`, alice));
        expect(one).toEqual({ ...n, lorawan_net_id: one.lorawan_net_id });
        expect(Object.keys(one).sort()).toEqual(['description', 'interface', 'lorawan_net_id', 'name', 'type_ref', 'uid']);
        expect(one.lorawan_net_id === null || typeof one.lorawan_net_id === 'string' || typeof one.lorawan_net_id === 'number').toBe(true);
      }
    });

    it('is 404 NOT_FOUND for an unknown uid', async () => {
      expectError(await get('/datamodel/network/999999', alice), 404, 'NOT_FOUND');
    });

    it.each(['abc', '1.5', '-1', '1e3', '0x10'])('is 400 VALIDATION_FAILED for the uid %s', async (uid) => {
      expectError(await get(`/datamodel/network/${uid}`, alice), 400, 'VALIDATION_FAILED', 'uid');
    });
  });

  describe('GET /datamodel/network/by_type/{uid}', () => {
    it('lists the device models of LoRaWAN with every member docs/api.md lists', async () => {
      const types = expectSuccess<{ uid: number; type: string }[]>(await get('/datamodel/network/type', alice));
      const deviceTypes = expectSuccess<{ uid: number; type_name: string }[]>(await get('/datamodel/device/type', alice));
      const lorawan = types.find((t) => t.type === 'LoRaWAN')!;
      const data = expectSuccess<Record<string, unknown>[]>(await get(`/datamodel/network/by_type/${lorawan.uid}`, alice));
      expect(data.length).toBeGreaterThan(0);
      for (const e of data) {
        expect(e).toEqual({
          uid: integer(),
          name: expect.any(String),
          __type: expect.any(String),
          __reference: expect.any(String),
          manufacturer: expect.any(String),
          manufacturer_ref: integer(),
          device_type_ref: integer(),
          type_name: expect.any(String),
        });
        expect([e.uid, e.manufacturer_ref, e.device_type_ref].every(isInt)).toBe(true);
        // device_type_ref and type_name name the same device type.
        expect(deviceTypes.find((t) => t.uid === e.device_type_ref)?.type_name).toBe(e.type_name);
      }
    });

    it('answers an array for every network type', async () => {
      const types = expectSuccess<{ uid: number }[]>(await get('/datamodel/network/type', alice));
      for (const t of types) expect(Array.isArray(expectSuccess(await get(`/datamodel/network/by_type/${t.uid}`, alice)))).toBe(true);
    });

    it('is 404 NOT_FOUND for an unknown network type', async () => {
      expectError(await get('/datamodel/network/by_type/999999', alice), 404, 'NOT_FOUND');
    });

    it.each(['abc', '1.5', '-1'])('is 400 VALIDATION_FAILED for the uid %s', async (uid) => {
      expectError(await get(`/datamodel/network/by_type/${uid}`, alice), 400, 'VALIDATION_FAILED', 'uid');
    });
  });

  describe('GET /datamodel/decoder and /datamodel/decoder/{decoder_id}', () => {
    it('lists the decoders with every member docs/api.md lists, Cayenne LPP and raw among them', async () => {
      const data = expectSuccess<Record<string, unknown>[]>(await get('/datamodel/decoder', alice));
      for (const d of data) {
        expect(Object.keys(d).sort()).toEqual(['description', 'interface', 'lorawan_net_id', 'name', 'type_ref', 'uid']);
        expect(isInt(d.uid)).toBe(true);
        expect(typeof d.name).toBe('string');
        expect(typeof d.description).toBe('string');
        expect(stringOrNull(d.interface)).toBe(true);
        expect(d.type_ref === null || isInt(d.type_ref)).toBe(true);
        expect(d.lorawan_net_id === null || typeof d.lorawan_net_id === 'string' || typeof d.lorawan_net_id === 'number').toBe(true);
      }
      expect(data.map((d) => d.name)).toEqual(expect.arrayContaining(['Cayenne LPP', 'raw']));
      expect(new Set(data.map((d) => d.uid)).size).toBe(data.length);
    });

    it('gives {device, manufacturer} for each decoder', async () => {
      const list = expectSuccess<{ uid: number }[]>(await get('/datamodel/decoder', alice));
      for (const d of list) {
        expect(expectSuccess(await get(`/datamodel/decoder/${d.uid}`, alice))).toEqual({ device: expect.any(String), manufacturer: expect.any(String) });
      }
    });

    it('is 404 NOT_FOUND for an unknown decoder', async () => {
      expectError(await get('/datamodel/decoder/999999', alice), 404, 'NOT_FOUND');
    });

    it.each(['abc', '1.5', '-1'])('is 400 VALIDATION_FAILED for the decoder_id %s', async (id) => {
      expectError(await get(`/datamodel/decoder/${id}`, alice), 400, 'VALIDATION_FAILED', 'decoder_id');
    });
  });

  describe('GET /datamodel/data/type/all and /datamodel/data/type/{type_id}', () => {
    it('lists the data types {uid, label, alias, unit}, the measurement and radio ones among them', async () => {
      const data = expectSuccess<DataTypeEntry[]>(await get('/datamodel/data/type/all', alice));
      for (const t of data) {
        expect(t).toEqual({ uid: integer(), label: expect.any(String), alias: expect.any(String), unit: expect.any(String) });
        expect(isInt(t.uid)).toBe(true);
      }
      expect(data.map((t) => t.alias)).toEqual(expect.arrayContaining(DATA_TYPE_ALIASES));
      expect(new Set(data.map((t) => t.uid)).size).toBe(data.length);
      expect(new Set(data.map((t) => t.alias)).size).toBe(data.length);
    });

    it('gives each data type as a string holding JSON {uid, label, alias, unit, type, exponent, offset}', async () => {
      const list = expectSuccess<DataTypeEntry[]>(await get('/datamodel/data/type/all', alice));
      for (const t of list) {
        const data = expectSuccess<unknown>(await get(`/datamodel/data/type/${t.uid}`, alice));
        expect(typeof data).toBe('string');
        const detail = JSON.parse(data as string) as Record<string, unknown>;
        expect(detail).toEqual({ ...t, type: integer(), exponent: expect.any(String), offset: integer() });
        expect(isInt(detail.type)).toBe(true);
        expect(isInt(detail.offset)).toBe(true);
      }
    });

    it('is 404 NOT_FOUND for an unknown data type', async () => {
      expectError(await get('/datamodel/data/type/999999', alice), 404, 'NOT_FOUND');
    });

    it.each(['abc', '1.5', '-1'])('is 400 VALIDATION_FAILED for the type_id %s', async (id) => {
      expectError(await get(`/datamodel/data/type/${id}`, alice), 400, 'VALIDATION_FAILED', 'type_id');
    });
  });

  describe('GET /datamodel/icon and /datamodel/device/type', () => {
    it('lists the icons {uid, name, label}', async () => {
      const data = expectSuccess<Record<string, unknown>[]>(await get('/datamodel/icon', alice));
      expect(data.length).toBeGreaterThan(0);
      for (const i of data) {
        expect(i).toEqual({ uid: integer(), name: expect.any(String), label: expect.any(String) });
        expect(isInt(i.uid)).toBe(true);
      }
    });

    it('lists the device types {uid, type_name}: Tracker, Camera, Sensor, Actuator', async () => {
      const data = expectSuccess<{ uid: number; type_name: string }[]>(await get('/datamodel/device/type', alice));
      for (const t of data) {
        expect(t).toEqual({ uid: integer(), type_name: expect.any(String) });
        expect(isInt(t.uid)).toBe(true);
      }
      expect(data.map((t) => t.type_name)).toEqual(expect.arrayContaining(DEVICE_TYPES));
    });
  });

  describe('GET /datamodel', () => {
    it('holds every enumeration in one object, the same as the single routes', async () => {
      const all = expectSuccess<Record<string, unknown>>(await get('/datamodel', alice));
      expect(typeof all).toBe('object');
      expect(Array.isArray(all)).toBe(false);
      const values = Object.values(all);
      for (const path of [
        '/datamodel/network',
        '/datamodel/network/type',
        '/datamodel/decoder',
        '/datamodel/data/type/all',
        '/datamodel/icon',
        '/datamodel/device/type',
      ]) {
        const single = expectSuccess(await get(path, alice));
        expect(values).toContainEqual(single);
      }
    });

    it('holds the caller’s own networks and not another account’s', async () => {
      const [{ uid }]: [{ uid: number }] = await ds.query(
        `INSERT INTO networks (name, description, interface, type_ref, adapter, account_id) VALUES ('Bob integrator', '', 'REST', 7, 'rest', $1) RETURNING uid`,
        [bob.account.id],
      );
      const forBob = JSON.stringify(expectSuccess(await get('/datamodel', bob)));
      const forAlice = JSON.stringify(expectSuccess(await get('/datamodel', alice)));
      expect(forBob).toContain('Bob integrator');
      expect(forAlice).not.toContain('Bob integrator');
      expectError(await get(`/datamodel/network/${uid}`, alice), 404, 'NOT_FOUND');
    });
  });

  describe('GET /user/device/data/type/all', () => {
    let dataTypes: DataTypeEntry[];

    beforeAll(async () => {
      dataTypes = expectSuccess<DataTypeEntry[]>(await get('/datamodel/data/type/all', alice));
    });

    const inUse = async (who: Account) =>
      expectSuccess<DataTypeEntry[]>(
        await svc
          .http()
          .get('/user/device/data/type/all')
          .set(...bearer(who.appToken)),
      );
    const aliases = (list: DataTypeEntry[]) => list.map((t) => t.alias).sort();

    async function registerDevice(who: Account, eui = randomEui()) {
      const data = expectSuccess<{ uid: number }>(await svc.http().post(`/user/device/${eui}`).set('Cookie', who.cookie).send({}), 201);
      expect(isInt(data.uid)).toBe(true);
      return { eui, uid: data.uid };
    }

    async function insertUplink(deviceUid: number, values: Record<string, number>) {
      const columns = Object.keys(values);
      const params = [deviceUid, ...Object.values(values)];
      await ds.query(
        `INSERT INTO uplinks (device_id, received_at, port, payload${columns.map((c) => `, ${c}`).join('')})
         VALUES ($1, now() - interval '1 minute', 1, '\\x0102'::bytea${columns.map((_, i) => `, $${i + 2}`).join('')})`,
        params,
      );
    }

    it('is empty for a new account, and for an account whose devices have no data yet', async () => {
      const carol = await accountWithCredentials(svc, 'carol');
      expect(await inUse(carol)).toEqual([]);
      await registerDevice(carol);
      expect(await inUse(carol)).toEqual([]);
    });

    it('lists exactly the data types that have values in the caller’s devices’ uplinks', async () => {
      const ann = await accountWithCredentials(svc, 'ann');
      const ben = await accountWithCredentials(svc, 'ben');
      const device = await registerDevice(ann);
      await insertUplink(device.uid, { temperature: 21.5, rssi: -97, snr: 7.5 });
      await insertUplink(device.uid, { humidity: 55, geoloc_lat: 52.1, geoloc_lon: 5.1 });
      // An uplink with no measurement at all adds nothing.
      await insertUplink(device.uid, {});

      const list = await inUse(ann);
      expect(aliases(list)).toEqual(['RSSI', 'SNR', 'geoloc_LAT', 'geoloc_LON', 'humidity', 'temperature'].sort());
      expect(aliases(list)).not.toContain('LAT');
      // Each entry is the datamodel's own entry.
      for (const t of list) expect(t).toEqual(dataTypes.find((d) => d.alias === t.alias));

      // Another account sees none of them; its own data shows only in its own list.
      expect(await inUse(ben)).toEqual([]);
      const bens = await registerDevice(ben);
      await insertUplink(bens.uid, { lat: 48.85, lon: 2.35 });
      expect(aliases(await inUse(ben))).toEqual(['LAT', 'LON']);
      expect(aliases(await inUse(ann))).not.toContain('LAT');
      expect(aliases(await inUse(ann))).toEqual(aliases(list));
    });

    it('forgets the data of a device its owner deleted', async () => {
      const dave = await accountWithCredentials(svc, 'dave');
      const kept = await registerDevice(dave);
      const gone = await registerDevice(dave);
      await insertUplink(kept.uid, { temperature: 20 });
      await insertUplink(gone.uid, { lat: 10, lon: 20, alt: 30 });
      expect(aliases(await inUse(dave))).toEqual(['ALT', 'LAT', 'LON', 'temperature'].sort());
      expectSuccess(
        await svc
          .http()
          .delete(`/user/device/${gone.eui}`)
          .set(...bearer(dave.appToken)),
      );
      expect(aliases(await inUse(dave))).toEqual(['temperature']);
    });
  });
});
