import { getDataSourceToken } from '@nestjs/typeorm';
import { ROUTES } from '@dts/client';
import type { CreateFenceRequest, FenceWire as Fence, GatewayWire as Gateway } from '@dts/domain';
import { randomBytes } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { accountWithCredentials, bearer } from './support/accounts';
import { expectApiError, expectError } from './support/envelope';
import { startTestService, type TestService } from './support/harness';

/**
 * Geofences (GET/POST /user/fence, GET/DELETE /user/fence/{uid}) and the gateways computed from
 * the rx metadata of the caller's uplinks (GET /user/gateways[/{network_ref}]): docs/api.md §1, §8, §11.
 * Calls go through the typed client (libs/client); raw HTTP only where a test sends what the
 * client's types would not let through.
 */

type Account = Awaited<ReturnType<typeof accountWithCredentials>>;

const SQUARE: CreateFenceRequest['geometry'] = {
  type: 'Polygon',
  coordinates: [
    [
      [5.1, 52.0],
      [5.2, 52.0],
      [5.2, 52.1],
      [5.1, 52.1],
      [5.1, 52.0],
    ],
  ],
};

/** The south-west quarter of SQUARE. */
const SQUARE_SMALL: CreateFenceRequest['geometry'] = {
  type: 'Polygon',
  coordinates: [
    [
      [5.1, 52.0],
      [5.15, 52.0],
      [5.15, 52.05],
      [5.1, 52.05],
      [5.1, 52.0],
    ],
  ],
};

const polygon = (ring: unknown[]) => ({ type: 'Polygon', coordinates: [ring] }) as CreateFenceRequest['geometry'];
const isInt = (v: unknown) => typeof v === 'number' && Number.isInteger(v);
const randomEui = () => randomBytes(8).toString('hex').toUpperCase();

describe('fences and gateways', () => {
  let svc: TestService;
  let ds: DataSource;
  let alice: Account;
  let bob: Account;

  beforeAll(async () => {
    svc = await startTestService();
    ds = svc.app.get<DataSource>(getDataSourceToken());
    alice = await accountWithCredentials(svc, 'alice');
    bob = await accountWithCredentials(svc, 'bob');
  });
  afterAll(() => svc?.close());

  describe('/user/fence', () => {
    const list = (who: Account) => who.client.fences.list();
    const create = (who: Account, body: CreateFenceRequest) => who.client.fences.create(body);

    it('is an empty list for a new account', async () => {
      const res = await bob.sessionClient.request<Fence[]>(ROUTES.fencesList);
      expect({ status: res.status, data: res.data, meta: res.meta, messages: res.messages }).toEqual({ status: 200, data: [], meta: [], messages: [] });
    });

    it('creates a fence (201), lists it, gets it, deletes it, then answers 404', async () => {
      const before = Math.floor(Date.now() / 1000);
      const res = await alice.sessionClient.request<Fence>(ROUTES.fencesCreate, { body: { name: 'Farm', geometry: SQUARE } });
      const fence = res.data;
      expect({ status: res.status, meta: res.meta }).toEqual({ status: 201, meta: [] });
      expect(fence).toEqual({ uid: expect.any(Number), name: 'Farm', geometry: SQUARE, created_unix: expect.any(Number) });
      expect(isInt(fence.uid) && isInt(fence.created_unix)).toBe(true);
      expect(fence.created_unix).toBeGreaterThanOrEqual(before - 1);
      expect(fence.created_unix).toBeLessThanOrEqual(Math.floor(Date.now() / 1000) + 1);

      expect(await list(alice)).toContainEqual(fence);
      expect(await alice.client.fences.get(fence.uid)).toEqual(fence);

      const del = await alice.client.request(ROUTES.fencesRemove, { params: { uid: fence.uid } });
      expect({ status: del.status, data: del.data }).toEqual({ status: 200, data: { uid: fence.uid, deleted: true } });

      await expectApiError(alice.client.fences.get(fence.uid), 404, 'NOT_FOUND');
      await expectApiError(alice.client.fences.remove(fence.uid), 404, 'NOT_FOUND');
      expect((await list(alice)).map((f) => f.uid)).not.toContain(fence.uid);
    });

    it('keeps every fence of the account with its geometry as sent', async () => {
      const withHole = {
        type: 'Polygon' as const,
        bbox: [0, 0, 10, 10],
        coordinates: [
          [
            [0, 0],
            [10, 0],
            [10, 10],
            [0, 10],
            [0, 0],
          ],
          [
            [2, 2, 5],
            [4, 2, 5],
            [4, 4, 5],
            [2, 2, 5],
          ],
        ] as [number, number][][],
      };
      const edges = polygon([
        [-180, -90],
        [180, -90],
        [180, 90],
        [-180, -90],
      ]);
      const a = await create(alice, { name: 'x'.repeat(100), geometry: withHole });
      const b = await create(alice, { name: 'Edges', geometry: edges });
      expect(a.geometry).toEqual(withHole);
      expect(b.geometry).toEqual(edges);
      const uids = (await list(alice)).map((f) => f.uid);
      expect(uids).toEqual(expect.arrayContaining([a.uid, b.uid]));
      expect(await alice.sessionClient.fences.get(b.uid)).toEqual(b);
    });

    const ring = (...positions: unknown[]) => positions;
    it.each<{ what: string; body: unknown; field: string }>([
      { what: 'a missing name', body: { geometry: SQUARE }, field: 'name' },
      { what: 'an empty name', body: { name: '', geometry: SQUARE }, field: 'name' },
      { what: 'a name of 101 characters', body: { name: 'n'.repeat(101), geometry: SQUARE }, field: 'name' },
      { what: 'a name that is not a string', body: { name: 5, geometry: SQUARE }, field: 'name' },
      { what: 'a missing geometry', body: { name: 'F' }, field: 'geometry' },
      { what: 'a geometry that is a string', body: { name: 'F', geometry: 'POLYGON((5.1 52, 5.2 52, 5.2 52.1, 5.1 52))' }, field: 'geometry' },
      { what: 'a geometry that is an array', body: { name: 'F', geometry: SQUARE.coordinates }, field: 'geometry' },
      { what: 'a geometry that is null', body: { name: 'F', geometry: null }, field: 'geometry' },
      { what: 'a Point', body: { name: 'F', geometry: { type: 'Point', coordinates: [5.1, 52.0] } }, field: 'geometry' },
      { what: 'a type other than Polygon', body: { name: 'F', geometry: { ...SQUARE, type: 'LineString' } }, field: 'geometry' },
      { what: 'no rings', body: { name: 'F', geometry: { type: 'Polygon', coordinates: [] } }, field: 'geometry' },
      { what: 'a ring of 3 positions', body: { name: 'F', geometry: polygon(ring([5.1, 52.0], [5.2, 52.0], [5.1, 52.0])) }, field: 'geometry' },
      {
        what: 'a ring that is not closed',
        body: { name: 'F', geometry: polygon(ring([5.1, 52.0], [5.2, 52.0], [5.2, 52.1], [5.1, 52.1])) },
        field: 'geometry',
      },
      { what: 'longitude 181', body: { name: 'F', geometry: polygon(ring([181, 52.0], [5.2, 52.0], [5.2, 52.1], [181, 52.0])) }, field: 'geometry' },
      { what: 'latitude -91', body: { name: 'F', geometry: polygon(ring([5.1, -91], [5.2, 52.0], [5.2, 52.1], [5.1, -91])) }, field: 'geometry' },
      {
        what: 'a position holding a string',
        body: { name: 'F', geometry: polygon(ring([5.1, 52.0], ['5.2', 52.0], [5.2, 52.1], [5.1, 52.0])) },
        field: 'geometry',
      },
      { what: 'a position of one number', body: { name: 'F', geometry: polygon(ring([5.1, 52.0], [5.2], [5.2, 52.1], [5.1, 52.0])) }, field: 'geometry' },
      { what: 'an unknown member in the body', body: { name: 'F', geometry: SQUARE, color: 'red' }, field: 'color' },
      { what: 'constructor in the body', body: { name: 'F', geometry: SQUARE, constructor: { prototype: {} } }, field: 'constructor' },
      { what: 'an unknown member inside geometry', body: { name: 'F', geometry: { ...SQUARE, properties: {} } }, field: 'geometry' },
    ])('refuses $what with 400 VALIDATION_FAILED naming $field, storing nothing', async ({ body, field }) => {
      const before = await list(alice);
      expectError(
        await svc
          .http()
          .post('/user/fence')
          .set(...bearer(alice.appToken))
          .send(body as object),
        400,
        'VALIDATION_FAILED',
        field,
      );
      expect(await list(alice)).toEqual(before);
    });

    it('refuses __proto__ in the body and malformed JSON, storing nothing', async () => {
      const before = await list(alice);
      const proto = `{"name":"F","geometry":${JSON.stringify(SQUARE)},"__proto__":{"admin":true}}`;
      expectError(
        await svc
          .http()
          .post('/user/fence')
          .set(...bearer(alice.appToken))
          .set('Content-Type', 'application/json')
          .send(proto),
        400,
        'VALIDATION_FAILED',
      );
      expectError(
        await svc
          .http()
          .post('/user/fence')
          .set(...bearer(alice.appToken))
          .set('Content-Type', 'application/json')
          .send('{"name": "F", "geometry": '),
        400,
        'MALFORMED_JSON',
      );
      expect(await list(alice)).toEqual(before);
    });

    it('names each bad member in its own entry', async () => {
      const errors = expectError(
        await svc
          .http()
          .post('/user/fence')
          .set(...bearer(alice.appToken))
          .send({ name: 7, geometry: 'x', extra: 1 }),
        400,
        'VALIDATION_FAILED',
      );
      expect([...new Set(errors.map((e) => e.field))].sort()).toEqual(['extra', 'geometry', 'name']);
    });

    it('hides another account’s fence: GET and DELETE are 404 and the fence stays with its owner', async () => {
      const fence = await create(alice, { name: 'Private', geometry: SQUARE });
      await expectApiError(bob.client.fences.get(fence.uid), 404, 'NOT_FOUND');
      await expectApiError(bob.client.fences.remove(fence.uid), 404, 'NOT_FOUND');
      await expectApiError(bob.sessionClient.fences.remove(fence.uid), 404, 'NOT_FOUND');
      expect((await list(bob)).map((f) => f.uid)).not.toContain(fence.uid);
      expect(await alice.client.fences.get(fence.uid)).toEqual(fence);
      expect(await list(alice)).toContainEqual(fence);
    });

    it('is 404 NOT_FOUND for an unknown uid', async () => {
      await expectApiError(alice.client.fences.get(999999), 404, 'NOT_FOUND');
      await expectApiError(alice.client.fences.remove(999999), 404, 'NOT_FOUND');
    });

    it.each(['abc', '1.5', '-1'])('is 400 VALIDATION_FAILED naming uid for the uid %s', async (uid) => {
      expectError(
        await svc
          .http()
          .get(`/user/fence/${uid}`)
          .set(...bearer(alice.appToken)),
        400,
        'VALIDATION_FAILED',
        'uid',
      );
      expectError(
        await svc
          .http()
          .delete(`/user/fence/${uid}`)
          .set(...bearer(alice.appToken)),
        400,
        'VALIDATION_FAILED',
        'uid',
      );
    });

    it('needs credentials on every route', async () => {
      const fence = await create(alice, { name: 'Guarded', geometry: SQUARE });
      const anonymous = svc.client();
      await expectApiError(anonymous.fences.list(), 401, 'AUTH_REQUIRED');
      await expectApiError(anonymous.fences.get(fence.uid), 401, 'AUTH_REQUIRED');
      await expectApiError(anonymous.fences.create({ name: 'Anon', geometry: SQUARE }), 401, 'AUTH_REQUIRED');
      await expectApiError(anonymous.fences.remove(fence.uid), 401, 'AUTH_REQUIRED');
      expect(await list(alice)).toContainEqual(fence);
      expect((await list(alice)).map((f) => f.name)).not.toContain('Anon');
    });

    describe('PATCH /user/fence/{uid}', () => {
      const MOVED = polygon([
        [6.1, 53.0],
        [6.2, 53.0],
        [6.2, 53.1],
        [6.1, 53.0],
      ]);

      it('renames, reshapes, or both; the uid and creation time stay', async () => {
        const fence = await create(alice, { name: 'Before', geometry: SQUARE });
        expect(await alice.client.fences.update(fence.uid, { name: 'After' })).toEqual({ ...fence, name: 'After' });
        expect(await alice.sessionClient.fences.update(fence.uid, { geometry: MOVED })).toEqual({ ...fence, name: 'After', geometry: MOVED });
        expect(await alice.client.fences.update(fence.uid, { name: 'Both', geometry: SQUARE })).toEqual({ ...fence, name: 'Both' });
        expect(await alice.client.fences.get(fence.uid)).toEqual({ ...fence, name: 'Both' });
      });

      it.each<{ what: string; body: unknown; field: string }>([
        { what: 'an empty body', body: {}, field: 'name' },
        { what: 'an empty name', body: { name: '' }, field: 'name' },
        { what: 'a name of 101 characters', body: { name: 'n'.repeat(101) }, field: 'name' },
        {
          what: 'a ring that is not closed',
          body: {
            geometry: polygon([
              [5.1, 52.0],
              [5.2, 52.0],
              [5.2, 52.1],
              [5.1, 52.1],
            ]),
          },
          field: 'geometry',
        },
        { what: 'a null geometry', body: { geometry: null }, field: 'geometry' },
        { what: 'a null name', body: { name: null, geometry: SQUARE }, field: 'name' },
        { what: 'an unknown member', body: { name: 'x', color: 'red' }, field: 'color' },
      ])('refuses $what with 400 naming $field, changing nothing', async ({ body, field }) => {
        const fence = await create(alice, { name: 'Steady', geometry: SQUARE });
        expectError(
          await svc
            .http()
            .patch(`/user/fence/${fence.uid}`)
            .set(...bearer(alice.appToken))
            .send(body as object),
          400,
          'VALIDATION_FAILED',
          field,
        );
        expect(await alice.client.fences.get(fence.uid)).toEqual(fence);
      });

      it('is 401 without credentials, 404 for another account’s fence or an unknown uid, changing nothing', async () => {
        const fence = await create(alice, { name: 'Mine', geometry: SQUARE });
        await expectApiError(svc.client().fences.update(fence.uid, { name: 'Anon' }), 401, 'AUTH_REQUIRED');
        await expectApiError(bob.client.fences.update(fence.uid, { name: 'Bob’s' }), 404, 'NOT_FOUND');
        await expectApiError(alice.client.fences.update(999999, { name: 'Nobody’s' }), 404, 'NOT_FOUND');
        expect(await alice.client.fences.get(fence.uid)).toEqual(fence);
      });
    });

    describe('GET /user/fence/{uid}/devices', () => {
      // A fence with a hole: the ring [5.14..5.16] × [52.04..52.06] is outside.
      const HOLED = {
        type: 'Polygon' as const,
        coordinates: [
          [
            [5.1, 52.0],
            [5.2, 52.0],
            [5.2, 52.1],
            [5.1, 52.1],
            [5.1, 52.0],
          ],
          [
            [5.14, 52.04],
            [5.16, 52.04],
            [5.16, 52.06],
            [5.14, 52.06],
            [5.14, 52.04],
          ],
        ] as [number, number][][],
      };
      const place = async (who: Account, label: string, meta: Record<string, number>) => {
        const eui = randomEui();
        await who.client.devices.register(eui, { label });
        if (Object.keys(meta).length > 0) await who.client.meta.update(eui, meta);
        return eui;
      };

      it('lists the account’s devices inside (reported position first, else installation), none outside or in a hole, none of another account', async () => {
        const carol = await accountWithCredentials(svc, 'carol');
        const fence = await carol.client.fences.create({ name: 'Holed', geometry: HOLED });
        const reported = await place(carol, 'Reported', { lat: 52.02, lon: 5.12, installation_lat: 40, installation_lon: 3 });
        const installed = await place(carol, 'Installed', { installation_lat: 52.08, installation_lon: 5.18 });
        // Reported outside, installed inside: the reported position counts.
        await place(carol, 'Moved away', { lat: 51.5, lon: 5.15, installation_lat: 52.03, installation_lon: 5.11 });
        await place(carol, 'In the hole', { lat: 52.055, lon: 5.155 });
        await place(carol, 'Nowhere', {});
        await place(bob, 'Bob inside', { lat: 52.02, lon: 5.12 });
        const inside = await carol.client.fences.devices(fence.uid);
        expect(inside).toEqual(
          [
            { devEUI: reported, label: 'Reported', lat: 52.02, lon: 5.12, position: 'reported' },
            { devEUI: installed, label: 'Installed', lat: 52.08, lon: 5.18, position: 'installation' },
          ].sort((a, b) => a.devEUI.localeCompare(b.devEUI)),
        );
        // Reshaped to leave the installed one out.
        await carol.client.fences.update(fence.uid, { geometry: SQUARE_SMALL });
        expect((await carol.client.fences.devices(fence.uid)).map((d) => d.devEUI)).toEqual([reported]);
      });

      it('is 401 without credentials, 404 for another account’s fence, 400 for a bad uid', async () => {
        const fence = await create(alice, { name: 'Counted', geometry: SQUARE });
        await expectApiError(svc.client().fences.devices(fence.uid), 401, 'AUTH_REQUIRED');
        await expectApiError(bob.client.fences.devices(fence.uid), 404, 'NOT_FOUND');
        expectError(
          await svc
            .http()
            .get('/user/fence/x1/devices')
            .set(...bearer(alice.appToken)),
          400,
          'VALIDATION_FAILED',
          'uid',
        );
      });
    });
  });

  describe('/user/gateways', () => {
    const now = Math.floor(Date.now() / 1000);
    const HOUR = 3600;
    const DAY = 86_400;

    const gateways = (who: Account, networkRef?: number) => who.client.gateways.list(networkRef);
    const byId = (list: Gateway[]) => Object.fromEntries(list.map((g) => [g.gateway_id, g]));
    const ids = (list: Gateway[]) => list.map((g) => g.gateway_id).sort();

    async function registerDevice(who: Account) {
      const eui = randomEui();
      const data = await who.sessionClient.devices.register(eui);
      expect(isInt(data.uid)).toBe(true);
      return { eui, uid: data.uid };
    }

    interface Reception {
      gateway: string;
      network: number | null;
      rssi: number | null;
      snr?: number | null;
      lat?: number | null;
      lon?: number | null;
    }

    /** One uplink of the device received at `at` (unix seconds), heard by these gateways. */
    async function uplink(deviceUid: number, at: number, receptions: Reception[]) {
      const [{ uid }]: [{ uid: string | number }] = await ds.query(
        `INSERT INTO uplinks (device_id, received_at, port, payload, rssi) VALUES ($1, to_timestamp($2), 1, '\\x0102'::bytea, $3) RETURNING uid`,
        [deviceUid, at, receptions[0]?.rssi ?? null],
      );
      for (const r of receptions) {
        await ds.query(
          `INSERT INTO uplink_gateways (uplink_id, device_id, gateway_id, network_ref, received_at, rssi, snr, lat, lon)
           VALUES ($1, $2, $3, $4, to_timestamp($5), $6, $7, $8, $9)`,
          [uid, deviceUid, r.gateway, r.network, at, r.rssi, r.snr ?? null, r.lat ?? null, r.lon ?? null],
        );
      }
    }

    let gina: Account;
    let hugo: Account;
    let ginaDevice: { eui: string; uid: number };

    // gw-alpha (network 2): within 24 h at now-60 (-100, no position), now-600 (-101, 52.0/5.0) and
    // now-23h55 (-103, 51.0/4.0); outside at now-24h05 (-50, 50.0/3.0).
    // gw-beta (network 3): once at now-600 (-110.5, 48.1/11.5).
    // gw-gamma (network 2): only 3 days ago (-90, 1.0/2.0).
    const ALPHA = { gateway_id: 'gw-alpha', network_ref: 2, lat: 52.0, lon: 5.0, last_seen_unix: now - 60, uplinks_24h: 3, rssi_avg: -101.3 };
    const BETA = { gateway_id: 'gw-beta', network_ref: 3, lat: 48.1, lon: 11.5, last_seen_unix: now - 600, uplinks_24h: 1, rssi_avg: -110.5 };
    const GAMMA = { gateway_id: 'gw-gamma', network_ref: 2, lat: 1.0, lon: 2.0, last_seen_unix: now - 3 * DAY, uplinks_24h: 0, rssi_avg: null };

    beforeAll(async () => {
      gina = await accountWithCredentials(svc, 'gina');
      hugo = await accountWithCredentials(svc, 'hugo');
    });

    it('is an empty list for a new account, on every network too', async () => {
      expect(await gateways(gina)).toEqual([]);
      expect(await gateways(gina, 1)).toEqual([]);
      expect(await gateways(gina, 2)).toEqual([]);
      const res = await gina.sessionClient.request<Gateway[]>(ROUTES.gatewaysList);
      expect({ status: res.status, data: res.data, meta: res.meta, messages: res.messages }).toEqual({ status: 200, data: [], meta: [], messages: [] });
    });

    it('is still empty with a device that has no uplinks', async () => {
      ginaDevice = await registerDevice(gina);
      expect(await gateways(gina)).toEqual([]);
    });

    it('computes each gateway from the receptions of the caller’s uplinks', async () => {
      const d = ginaDevice.uid;
      await uplink(d, now - 60, [{ gateway: 'gw-alpha', network: 2, rssi: -100, snr: 7 }]);
      await uplink(d, now - 600, [
        { gateway: 'gw-alpha', network: 2, rssi: -101, snr: 5, lat: 52.0, lon: 5.0 },
        { gateway: 'gw-beta', network: 3, rssi: -110.5, snr: -3, lat: 48.1, lon: 11.5 },
      ]);
      await uplink(d, now - 23 * HOUR - 55 * 60, [{ gateway: 'gw-alpha', network: 2, rssi: -103, lat: 51.0, lon: 4.0 }]);
      await uplink(d, now - DAY - 5 * 60, [{ gateway: 'gw-alpha', network: 2, rssi: -50, lat: 50.0, lon: 3.0 }]);
      await uplink(d, now - 3 * DAY, [{ gateway: 'gw-gamma', network: 2, rssi: -90, lat: 1.0, lon: 2.0 }]);

      const list = await gateways(gina);
      expect(ids(list)).toEqual(['gw-alpha', 'gw-beta', 'gw-gamma']);
      for (const g of list) {
        expect(Object.keys(g).sort()).toEqual(['gateway_id', 'last_seen_unix', 'lat', 'lon', 'network_ref', 'rssi_avg', 'uplinks_24h']);
        expect(isInt(g.last_seen_unix) && isInt(g.uplinks_24h)).toBe(true);
      }
      const g = byId(list);
      expect(g['gw-alpha']).toEqual(ALPHA);
      expect(g['gw-beta']).toEqual(BETA);
      expect(g['gw-gamma']).toEqual(GAMMA);
    });

    it('filters by network_ref', async () => {
      const two = await gateways(gina, 2);
      expect(ids(two)).toEqual(['gw-alpha', 'gw-gamma']);
      expect(byId(two)['gw-alpha']).toEqual(ALPHA);
      expect(byId(two)['gw-gamma']).toEqual(GAMMA);
      expect(await gateways(gina, 3)).toEqual([BETA]);
      expect(await gateways(gina, 1)).toEqual([]);
      expect(await gateways(gina, 4)).toEqual([]);
    });

    it('is 404 NOT_FOUND for an unknown network_ref and 400 VALIDATION_FAILED for a non-integer one', async () => {
      await expectApiError(gina.client.gateways.list(9999), 404, 'NOT_FOUND');
      for (const bad of ['abc', '1.5', '-1']) {
        expectError(
          await svc
            .http()
            .get(`/user/gateways/${bad}`)
            .set(...bearer(gina.appToken)),
          400,
          'VALIDATION_FAILED',
          'network_ref',
        );
      }
    });

    it('filters by the caller’s own network, and is 404 for another account’s network', async () => {
      const [{ uid: own }]: [{ uid: number }] = await ds.query(
        `INSERT INTO networks (name, description, interface, type_ref, adapter, account_id) VALUES ('Gina integrator', '', 'REST', 7, 'rest', $1) RETURNING uid`,
        [gina.account.id],
      );
      const hugoDevice = await registerDevice(hugo);
      await uplink(hugoDevice.uid, now - 100, [{ gateway: 'gw-private', network: own, rssi: -70 }]);
      // Hugo's device on Gina's network still counts for Hugo in the whole list.
      expect(ids(await gateways(hugo))).toContain('gw-private');
      expect(await gateways(gina, own)).toEqual([]);
      await expectApiError(hugo.client.gateways.list(own), 404, 'NOT_FOUND');
      await uplink(ginaDevice.uid, now - 100, [{ gateway: 'gw-own', network: own, rssi: -60, lat: 10, lon: 20 }]);
      expect(await gateways(gina, own)).toEqual([
        { gateway_id: 'gw-own', network_ref: own, lat: 10, lon: 20, last_seen_unix: now - 100, uplinks_24h: 1, rssi_avg: -60 },
      ]);
    });

    it('never shows another account’s receptions, not even on a gateway both use', async () => {
      const hugoDevice = await registerDevice(hugo);
      await uplink(hugoDevice.uid, now - 30, [
        { gateway: 'gw-alpha', network: 2, rssi: -40 },
        { gateway: 'gw-hugo', network: 3, rssi: -80, lat: 40.0, lon: -3.7 },
      ]);
      const ginas = byId(await gateways(gina));
      expect(ginas['gw-alpha']).toEqual(ALPHA);
      expect(ginas['gw-hugo']).toBeUndefined();

      const hugos = byId(await gateways(hugo));
      expect(hugos['gw-alpha']).toEqual({
        gateway_id: 'gw-alpha',
        network_ref: 2,
        lat: null,
        lon: null,
        last_seen_unix: now - 30,
        uplinks_24h: 1,
        rssi_avg: -40,
      });
      expect(hugos['gw-hugo']).toEqual({
        gateway_id: 'gw-hugo',
        network_ref: 3,
        lat: 40.0,
        lon: -3.7,
        last_seen_unix: now - 30,
        uplinks_24h: 1,
        rssi_avg: -80,
      });
      expect(hugos['gw-beta']).toBeUndefined();
      expect(hugos['gw-gamma']).toBeUndefined();
      expect(await gateways(hugo, 3)).toEqual([hugos['gw-hugo']]);
    });

    it('drops the receptions of a device its owner deleted', async () => {
      const extra = await registerDevice(gina);
      await uplink(extra.uid, now - 10, [
        { gateway: 'gw-alpha', network: 2, rssi: -80, lat: 53.0, lon: 6.0 },
        { gateway: 'gw-delta', network: 3, rssi: -95 },
      ]);
      const during = byId(await gateways(gina));
      expect(during['gw-alpha']).toEqual({ ...ALPHA, lat: 53.0, lon: 6.0, last_seen_unix: now - 10, uplinks_24h: 4, rssi_avg: -96 });
      expect(during['gw-delta']).toMatchObject({ network_ref: 3, uplinks_24h: 1, rssi_avg: -95, last_seen_unix: now - 10 });

      expect(await gina.client.devices.remove(extra.eui)).toEqual({ devEUI: extra.eui, removed: true });

      const after = byId(await gateways(gina));
      expect(after['gw-delta']).toBeUndefined();
      expect(after['gw-alpha']).toEqual(ALPHA);
      expect(after['gw-beta']).toEqual(BETA);
      expect(await gateways(gina, 3)).toEqual([BETA]);
    });

    it('needs credentials', async () => {
      await expectApiError(svc.client().gateways.list(), 401, 'AUTH_REQUIRED');
      await expectApiError(svc.client().gateways.list(2), 401, 'AUTH_REQUIRED');
    });
  });
});
