import { getQueueToken } from '@nestjs/bullmq';
import { getDataSourceToken } from '@nestjs/typeorm';
import { QUEUES } from '@dts/domain';
import type { Queue } from 'bullmq';
import { randomBytes } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { accountWithCredentials, bearer, tokenClient } from './support/accounts';
import { eventually } from '@dts/platform';
import { expectError, expectSuccess } from './support/envelope';
import { startTestService, type TestService } from './support/harness';

type Caller = Awaited<ReturnType<typeof accountWithCredentials>>;

const newEui = () => randomBytes(8).toString('hex').toUpperCase();

const META_MEMBERS = [
  'uid',
  'device_ref',
  'id',
  'user_ref',
  'owner_ref',
  'decoder_ref',
  'type_ref',
  'network_ref',
  'icon_ref',
  'ts_activity_first_unix',
  'ts_activity_last_unix',
  'ts_data_first_unix',
  'ts_data_last_unix',
  'battery_percent',
  'battery_voltage',
  'temperature_dc',
  'installation_lat',
  'installation_lon',
  'lat',
  'lon',
  'alt',
  'firmware_version',
  'signal_percent',
  'signal_dbm',
  'margin_db',
  'uplink_retention_days',
  'uplink_retention_effective_days',
  'devEUI',
  'type',
  'username',
  'label',
  'folder',
  'tags',
];

describe('devices', () => {
  let svc: TestService;
  let alice: Caller;
  let bob: Caller;
  let carol: Caller;
  let db: DataSource;

  const as = (who: Caller) => tokenClient(svc, who.appToken);
  const register = async (who: Caller, eui = newEui(), body: object = {}) => {
    const data = expectSuccess<{ uid: number; devEUI: string }>(await as(who).post(`/user/device/${eui}`, body), 201);
    return data;
  };
  const list = async (who: Caller) => expectSuccess<string[]>(await as(who).get('/user/device'));

  beforeAll(async () => {
    svc = await startTestService();
    db = svc.app.get<DataSource>(getDataSourceToken());
    [alice, bob, carol] = await Promise.all([accountWithCredentials(svc, 'alice'), accountWithCredentials(svc, 'bob'), accountWithCredentials(svc, 'carol')]);
  });
  afterAll(() => svc?.close());

  describe('POST /user/device/{eui}', () => {
    it.each(['70b3d57ed00000a1', '70-B3-D5-7E-D0-00-00-A2', '70:b3:d5:7e:d0:00:00:a3'])(
      'registers %s under its normal form, with every metadata member',
      async (form) => {
        const data = await register(alice, form);
        const expected = form.replace(/[-:]/g, '').toUpperCase();
        expect(Object.keys(data).sort()).toEqual([...META_MEMBERS].sort());
        expect(data).toMatchObject({
          devEUI: expected,
          label: expected,
          username: alice.account.username,
          owner_ref: alice.account.id,
          type: 'LoRaWAN',
          network_ref: 1,
          decoder_ref: 1,
          tags: null,
          folder: null,
          lat: null,
        });
        expect(await list(alice)).toContain(expected);
      },
    );

    it('takes the optional members', async () => {
      const data = await register(alice, newEui(), {
        label: 'Cow 7',
        type_ref: 1,
        decoder_ref: 2,
        network_ref: 3,
        icon_ref: 7,
        folder: 'herd/a',
        tags: { colour: 'brown', ids: [1, 2] },
      });
      expect(data).toMatchObject({
        label: 'Cow 7',
        type_ref: 1,
        decoder_ref: 2,
        network_ref: 3,
        icon_ref: 7,
        folder: 'herd/a',
        tags: { colour: 'brown', ids: [1, 2] },
      });
    });

    it.each(['70b3d57ed00000', '70b3d57ed00000a1ff', '70b3d57ed00000zz', '70-b3:d5-7e-d0-00-00-a1', 'all', '%20'])('refuses the EUI %p', async (eui) => {
      expectError(await as(alice).post(`/user/device/${eui}`), 400, 'VALIDATION_FAILED', 'eui');
    });

    it.each([
      [{ label: '' }, 'label'],
      [{ label: null }, 'label'],
      [{ label: 'x'.repeat(101) }, 'label'],
      [{ type_ref: 'one' }, 'type_ref'],
      [{ decoder_ref: 999 }, 'decoder_ref'],
      [{ network_ref: 999 }, 'network_ref'],
      [{ icon_ref: 0 }, 'icon_ref'],
      [{ folder: 5 }, 'folder'],
      [{ tags: { big: 'x'.repeat(5000) } }, 'tags'],
      [{ owner: 1 }, 'owner'],
      [{ devEUI: 'X' }, 'devEUI'],
    ])('refuses %j naming %s, storing nothing', async (body, field) => {
      const eui = newEui();
      expectError(await as(alice).post(`/user/device/${eui}`, body), 400, 'VALIDATION_FAILED', field);
      expect(await list(alice)).not.toContain(eui);
    });

    it('answers 409 DEVICE_EXISTS on the same account and DEVICE_OWNED_ELSEWHERE on another', async () => {
      const { devEUI } = await register(alice);
      expectError(await as(alice).post(`/user/device/${devEUI.toLowerCase()}`), 409, 'DEVICE_EXISTS');
      expectError(await as(bob).post(`/user/device/${devEUI}`), 409, 'DEVICE_OWNED_ELSEWHERE');
      expect(await list(bob)).not.toContain(devEUI);
    });

    it('answers 403 ACCOUNT_EXPIRED past the account’s expiration, storing nothing', async () => {
      const dave = await accountWithCredentials(svc, 'dave');
      await db.query(`UPDATE accounts SET expires_on = current_date - 1 WHERE id = $1`, [dave.account.id]);
      const eui = newEui();
      expectError(await as(dave).post(`/user/device/${eui}`), 403, 'ACCOUNT_EXPIRED');
      expect(await list(dave)).toEqual([]);
    });

    it('needs credentials', async () => {
      expectError(await svc.http().post(`/user/device/${newEui()}`), 401, 'AUTH_REQUIRED');
    });
  });

  describe('the device limit', () => {
    let small: TestService;
    afterAll(() => small?.close());

    it('answers 403 DEVICE_LIMIT_REACHED past max_devices, also for concurrent registrations', async () => {
      small = await startTestService({ env: { ACCOUNT_MAX_DEVICES: '3' } });
      const erin = await accountWithCredentials(small, 'erin');
      const attempts = await Promise.all(
        Array.from({ length: 6 }, () =>
          small
            .http()
            .post(`/user/device/${newEui()}`)
            .set(...bearer(erin.appToken))
            .send({}),
        ),
      );
      expect(attempts.filter((r) => r.status === 201)).toHaveLength(3);
      for (const r of attempts.filter((x) => x.status !== 201)) expectError(r, 403, 'DEVICE_LIMIT_REACHED');
      expect(
        expectSuccess<string[]>(
          await small
            .http()
            .get('/user/device')
            .set(...bearer(erin.appToken)),
        ),
      ).toHaveLength(3);
    });
  });

  describe('GET /user/device and /autocomplete', () => {
    it('lists own and shared devices only', async () => {
      const own = await register(carol, newEui(), { label: 'Own' });
      const theirs = await register(bob, newEui(), { label: 'Theirs' });
      const hidden = await register(bob, newEui());
      await as(bob).post(`/user/device/share/${theirs.devEUI}`, { username: carol.account.username }).expect(201);
      const euis = await list(carol);
      expect(euis).toEqual(expect.arrayContaining([own.devEUI, theirs.devEUI]));
      expect(euis).not.toContain(hidden.devEUI);
      expect([...euis].sort()).toEqual(euis);
    });

    it('finds by EUI or label, case-insensitively, through q, query or term, at most 25', async () => {
      const frank = await accountWithCredentials(svc, 'frank');
      const tagged = await register(frank, 'ABCDEF0000000001', { label: 'Barn Sensor' });
      for (let i = 0; i < 27; i++) await register(frank, `ABCDEF00000001${String(i).padStart(2, '0')}`, { label: `Field ${i}` });
      expect(expectSuccess<string[]>(await as(frank).get('/user/device/autocomplete?q=barn'))).toEqual([tagged.devEUI]);
      expect(expectSuccess<string[]>(await as(frank).get('/user/device/autocomplete?query=BARN'))).toEqual([tagged.devEUI]);
      expect(expectSuccess<string[]>(await as(frank).get('/user/device/autocomplete?term=ef0000000001'))).toEqual([tagged.devEUI]);
      expect(expectSuccess<string[]>(await as(frank).get('/user/device/autocomplete?q=field'))).toHaveLength(25);
      expect(expectSuccess<string[]>(await as(frank).get('/user/device/autocomplete?q=%25'))).toEqual([]);
      expect(expectSuccess<string[]>(await as(alice).get('/user/device/autocomplete?q=barn'))).toEqual([]);
    });

    it('refuses unknown and oversized query members', async () => {
      expectError(await as(alice).get('/user/device/autocomplete?search=x'), 400, 'VALIDATION_FAILED', 'search');
      expectError(await as(alice).get(`/user/device/autocomplete?q=${'x'.repeat(101)}`), 400, 'VALIDATION_FAILED', 'q');
    });

    it('needs credentials', async () => {
      expectError(await svc.http().get('/user/device'), 401, 'AUTH_REQUIRED');
      expectError(await svc.http().get('/user/device/autocomplete?q=a'), 401, 'AUTH_REQUIRED');
    });
  });

  describe('metadata', () => {
    it('GET meta/all and meta/{eui} show every member; another account gets 404', async () => {
      const device = await register(alice, newEui(), { label: 'Meta' });
      const all = expectSuccess<Record<string, unknown>[]>(await as(alice).get('/user/device/meta/all'));
      expect(all.find((d) => d.devEUI === device.devEUI)).toEqual(device);
      const one = expectSuccess<Record<string, unknown>[]>(await as(alice).get(`/user/device/meta/${device.devEUI.toLowerCase()}`));
      expect(one).toEqual([device]);
      expectError(await as(bob).get(`/user/device/meta/${device.devEUI}`), 404, 'NOT_FOUND');
      expect(expectSuccess<{ devEUI: string }[]>(await as(bob).get('/user/device/meta/all')).map((d) => d.devEUI)).not.toContain(device.devEUI);
      expectError(await as(alice).get('/user/device/meta/nope'), 400, 'VALIDATION_FAILED', 'eui');
      expectError(await svc.http().get('/user/device/meta/all'), 401, 'AUTH_REQUIRED');
    });

    it('POST meta/{eui} writes the writable members and clears with null', async () => {
      const device = await register(alice);
      const body = {
        label: 'Renamed',
        folder: 'a/b',
        tags: ['x'],
        installation_lat: 52.1,
        installation_lon: 5.2,
        lat: -33.9,
        lon: 151.2,
        alt: 12.5,
        battery_percent: 80,
        battery_voltage: 3.6,
        temperature_dc: 215,
        signal_percent: 70,
        signal_dbm: -97,
        firmware_version: '1.2.3',
        type_ref: 2,
        decoder_ref: 1,
        network_ref: 2,
        icon_ref: 4,
        user_ref: bob.account.id,
      };
      const [updated] = expectSuccess<Record<string, unknown>[]>(await as(alice).post(`/user/device/meta/${device.devEUI}`, body));
      const { user_ref, ...rest } = body;
      expect(updated).toMatchObject({ ...rest, user_ref, devEUI: device.devEUI, owner_ref: alice.account.id });
      const [cleared] = expectSuccess<Record<string, unknown>[]>(
        await as(alice).post(`/user/device/meta/${device.devEUI}`, { folder: null, tags: null, lat: null, user_ref: null }),
      );
      expect(cleared).toMatchObject({ folder: null, tags: null, lat: null, user_ref: null, label: 'Renamed' });
    });

    it.each([
      [{ uid: 5 }, 'uid'],
      [{ devEUI: '0000000000000000' }, 'devEUI'],
      [{ username: 'x' }, 'username'],
      [{ ts_activity_first_unix: 1 }, 'ts_activity_first_unix'],
      [{ lat: 91 }, 'lat'],
      [{ lon: -181 }, 'lon'],
      [{ installation_lat: '52' }, 'installation_lat'],
      [{ battery_percent: 101 }, 'battery_percent'],
      [{ signal_percent: -1 }, 'signal_percent'],
      [{ label: null }, 'label'],
      [{ owner_ref: null }, 'owner_ref'],
      [{ decoder_ref: 12345 }, 'decoder_ref'],
      [{ network_ref: 12345 }, 'network_ref'],
      [{ user_ref: 999999 }, 'user_ref'],
      [{ uplink_retention_days: 0 }, 'uplink_retention_days'],
      [{ uplink_retention_effective_days: 5 }, 'uplink_retention_effective_days'],
      [{}, 'body'],
    ])('refuses %j naming %s, storing nothing', async (body, field) => {
      const device = await register(alice, newEui(), { label: 'Unchanged' });
      const sent = field === 'body' ? body : { label: 'Changed?', ...body };
      expectError(await as(alice).post(`/user/device/meta/${device.devEUI}`, sent), 400, 'VALIDATION_FAILED', field);
      const [after] = expectSuccess<[{ label: string }]>(await as(alice).get(`/user/device/meta/${device.devEUI}`));
      expect(after.label).toBe('Unchanged');
    });

    it('lets only the owner set owner_ref, user_ref and uplink_retention_days; another account gets 404', async () => {
      const device = await register(alice);
      await as(alice).post(`/user/device/share/${device.devEUI}`, { username: bob.account.username }).expect(201);
      expectSuccess(await as(bob).post(`/user/device/meta/${device.devEUI}`, { label: 'Bob was here' }));
      expectError(await as(bob).post(`/user/device/meta/${device.devEUI}`, { user_ref: bob.account.id }), 403, 'FORBIDDEN', 'user_ref');
      expectError(await as(bob).post(`/user/device/meta/${device.devEUI}`, { owner_ref: bob.account.id }), 403, 'FORBIDDEN', 'owner_ref');
      expectError(await as(bob).post(`/user/device/meta/${device.devEUI}`, { uplink_retention_days: 1 }), 403, 'FORBIDDEN', 'uplink_retention_days');
      expectError(await as(carol).post(`/user/device/meta/${device.devEUI}`, { label: 'Carol' }), 404, 'NOT_FOUND');
      const [after] = expectSuccess<{ label: string; owner_ref: number }[]>(await as(alice).get(`/user/device/meta/${device.devEUI}`));
      expect(after).toMatchObject({ label: 'Bob was here', owner_ref: alice.account.id });
    });

    it('offers a device to another account with owner_ref; it moves when that account accepts', async () => {
      const device = await register(alice);
      const [offered] = expectSuccess<{ owner_ref: number; username: string }[]>(
        await as(alice).post(`/user/device/meta/${device.devEUI}`, { owner_ref: carol.account.id }),
      );
      expect(offered).toMatchObject({ owner_ref: alice.account.id, username: alice.account.username });
      expect(await list(carol)).not.toContain(device.devEUI);
      const moved = expectSuccess<{ owner_ref: number; username: string }>(await as(carol).post(`/user/device/handover/${device.devEUI}/accept`));
      expect(moved).toMatchObject({ owner_ref: carol.account.id, username: carol.account.username });
      expect(await list(carol)).toContain(device.devEUI);
      expect(await list(alice)).not.toContain(device.devEUI);
    });

    it('queues a re-decode of the history when decoder_ref changes, and not otherwise', async () => {
      const device = await register(alice, newEui(), { decoder_ref: 1 });
      const queue = svc.app.get<Queue>(getQueueToken(QUEUES.deviceRedecode));
      const jobsFor = async () => (await queue.getJobs(['waiting', 'active', 'completed', 'failed', 'delayed'])).filter((j) => j.data.deviceUid === device.uid);
      await as(alice).post(`/user/device/meta/${device.devEUI}`, { decoder_ref: 1, label: 'same decoder' }).expect(200);
      expect(await jobsFor()).toHaveLength(0);
      await as(alice).post(`/user/device/meta/${device.devEUI}`, { decoder_ref: 2 }).expect(200);
      const jobs = await jobsFor();
      expect(jobs).toHaveLength(1);
      expect(jobs[0]!.name).toBe('device.redecode');
    });
  });

  describe('sharing and GET /user/device/result/{eui}/{uid}', () => {
    it('shares, tells owner/shared/none, and ends shares', async () => {
      const device = await register(alice);
      const shared = expectSuccess(await as(alice).post(`/user/device/share/${device.devEUI}`, { username: bob.account.username.toUpperCase() }), 201);
      expect(shared).toEqual({ devEUI: device.devEUI, user_id: bob.account.id, username: bob.account.username });
      expectSuccess(await as(alice).post(`/user/device/share/${device.devEUI}`, { username: bob.account.username }), 201); // again: no change
      expect(await list(bob)).toContain(device.devEUI);

      const result = async (who: Caller, uid: number) =>
        expectSuccess<{ result: string }>(await as(who).get(`/user/device/result/${device.devEUI}/${uid}`)).result;
      expect(await result(alice, alice.account.id)).toBe('owner');
      expect(await result(alice, bob.account.id)).toBe('shared');
      expect(await result(bob, carol.account.id)).toBe('none');
      expectError(await as(carol).get(`/user/device/result/${device.devEUI}/${alice.account.id}`), 404, 'NOT_FOUND');
      expectError(await as(alice).get(`/user/device/result/${device.devEUI}/abc`), 400, 'VALIDATION_FAILED', 'uid');

      expectError(await as(bob).post(`/user/device/share/${device.devEUI}`, { username: carol.account.username }), 403, 'FORBIDDEN');
      expectError(await as(carol).post(`/user/device/share/${device.devEUI}`, { username: carol.account.username }), 404, 'NOT_FOUND');
      expectError(await as(alice).post(`/user/device/share/${device.devEUI}`, { username: 'nobody-by-this-name' }), 404, 'NOT_FOUND', 'username');
      expectError(await as(alice).post(`/user/device/share/${device.devEUI}`, { username: alice.account.username }), 400, 'VALIDATION_FAILED', 'username');
      expectError(await as(alice).post(`/user/device/share/${device.devEUI}`, {}), 400, 'VALIDATION_FAILED', 'username');
      expect(await result(alice, carol.account.id)).toBe('none');

      await as(alice).post(`/user/device/share/${device.devEUI}`, { username: carol.account.username }).expect(201);
      expectError(await as(bob).delete(`/user/device/share/${device.devEUI}/${carol.account.id}`), 403, 'FORBIDDEN');
      expect(expectSuccess(await as(bob).delete(`/user/device/share/${device.devEUI}/${bob.account.id}`))).toEqual({
        devEUI: device.devEUI,
        user_id: bob.account.id,
        removed: true,
      });
      expect(await list(bob)).not.toContain(device.devEUI);
      expectSuccess(await as(alice).delete(`/user/device/share/${device.devEUI}/${carol.account.id}`));
      expectError(await as(alice).delete(`/user/device/share/${device.devEUI}/${carol.account.id}`), 404, 'NOT_FOUND', 'uid');
      expectError(await as(carol).delete(`/user/device/share/${device.devEUI}/${carol.account.id}`), 404, 'NOT_FOUND');
      expectError(await svc.http().post(`/user/device/share/${device.devEUI}`).send({ username: 'x' }), 401, 'AUTH_REQUIRED');
    });
  });

  describe('DELETE /user/device/{eui}', () => {
    it('by the owner: gone from every listing at once, the history purged by the worker, the EUI free again', async () => {
      const device = await register(alice);
      await as(alice).post(`/user/device/share/${device.devEUI}`, { username: bob.account.username }).expect(201);
      await db.query(
        `INSERT INTO uplinks (device_id, received_at, port, payload, temperature) SELECT $1, now() - (g || ' seconds')::interval, 1, '\\x01', g FROM generate_series(1, 12000) g`,
        [device.uid],
      );
      expect(expectSuccess(await as(alice).delete(`/user/device/${device.devEUI}`))).toEqual({ devEUI: device.devEUI, removed: true });
      expect(await list(alice)).not.toContain(device.devEUI);
      expect(await list(bob)).not.toContain(device.devEUI);
      expectError(await as(bob).get(`/user/device/meta/${device.devEUI}`), 404, 'NOT_FOUND');
      expectError(await as(alice).delete(`/user/device/${device.devEUI}`), 404, 'NOT_FOUND');

      await eventually(
        async () => {
          const [{ uplinks, rows }] = await db.query(
            'SELECT (SELECT count(*)::int FROM uplinks WHERE device_id = $1) AS uplinks, (SELECT count(*)::int FROM devices WHERE uid = $1) AS rows',
            [device.uid],
          );
          expect(uplinks + rows).toBe(0);
        },
        { what: 'the device and its uplinks purged', timeoutMs: 20_000, intervalMs: 200 },
      );
      await register(bob, device.devEUI);
    });

    it('by a user it is shared with: only the association ends', async () => {
      const device = await register(alice);
      await as(alice).post(`/user/device/share/${device.devEUI}`, { username: bob.account.username }).expect(201);
      expectSuccess(await as(bob).delete(`/user/device/${device.devEUI}`));
      expect(await list(bob)).not.toContain(device.devEUI);
      expect(await list(alice)).toContain(device.devEUI);
    });

    it('by another account or without credentials: refused, the device stays', async () => {
      const device = await register(alice);
      expectError(await as(carol).delete(`/user/device/${device.devEUI}`), 404, 'NOT_FOUND');
      expectError(await svc.http().delete(`/user/device/${device.devEUI}`), 401, 'AUTH_REQUIRED');
      expectError(await as(alice).delete('/user/device/xyz'), 400, 'VALIDATION_FAILED', 'eui');
      expect(await list(alice)).toContain(device.devEUI);
    });
  });
});
