import { ROUTES } from '@dts/client';
import { type DashboardWidget, type DashboardWire, MAX_DASHBOARDS_PER_ACCOUNT, type OrganisationWire } from '@dts/domain';
import { randomBytes } from 'node:crypto';
import type { Test } from 'supertest';
import { DataSource } from 'typeorm';
import { accountWithCredentials, bearer, createToken } from './support/accounts';
import { expectError, expectSuccess } from './support/envelope';
import { startTestService, type TestService } from './support/harness';

/*
 * Dashboards (docs/api.md §21): GET/POST /user/dashboard, GET/PATCH/DELETE /user/dashboard/{uid}.
 * Success through the typed client; each bad input named by its field with nothing stored; 401;
 * another account's dashboard and device 404; in an organisation, a private dashboard is its
 * maker's alone, a shared one is seen by members of at least its role, and only its maker or an
 * admin changes it.
 */

type Person = Awaited<ReturnType<typeof accountWithCredentials>>;
const newEui = () => randomBytes(8).toString('hex').toUpperCase();

describe('dashboards', () => {
  let svc: TestService;
  let ds: DataSource;
  let alice: Person;
  let bob: Person;
  let aliceEui: string;
  let secondEui: string;
  let bobEui: string;

  const as = (who: Person, organisation?: string) => {
    const set = (t: Test) => (organisation === undefined ? t.set('Cookie', who.cookie) : t.set('Cookie', who.cookie).set('X-Organisation', organisation));
    return {
      get: (path: string) => set(svc.http().get(path)),
      post: (path: string, body: object = {}) => set(svc.http().post(path)).send(body),
      patch: (path: string, body: object = {}) => set(svc.http().patch(path)).send(body),
      delete: (path: string) => set(svc.http().delete(path)),
    };
  };
  const count = async (accountId?: number) =>
    Number(
      (
        await ds.query(
          accountId === undefined ? 'SELECT count(*)::int AS n FROM dashboards' : 'SELECT count(*)::int AS n FROM dashboards WHERE account_id = $1',
          accountId === undefined ? [] : [accountId],
        )
      )[0].n,
    );

  const widgets = (eui: string, other: string): DashboardWidget[] => [
    {
      id: 'chart',
      kind: 'chart',
      title: 'Temperatures',
      x: 0,
      y: 0,
      w: 8,
      h: 4,
      options: { devices: [eui, other], members: ['temperature', 'humidity'], period: '24h' },
    },
    { id: 'now', kind: 'latest', title: null, x: 8, y: 0, w: 4, h: 2, options: { device: eui, member: 'temperature' } },
    { id: 'gauge', kind: 'gauge', title: 'Battery', x: 8, y: 2, w: 4, h: 2, options: { device: eui, member: 'battery_percent', min: 0, max: 100 } },
    { id: 'map', kind: 'map', title: null, x: 0, y: 4, w: 6, h: 4, options: { devices: [eui], period: '7d' } },
    { id: 'alerts', kind: 'alerts', title: null, x: 6, y: 4, w: 6, h: 4, options: { devices: [], state: 'active' } },
  ];

  beforeAll(async () => {
    svc = await startTestService({ env: { AUTH_RATE_LIMIT_PER_MINUTE: '1000' } });
    ds = svc.app.get(DataSource);
    alice = await accountWithCredentials(svc, 'alice');
    bob = await accountWithCredentials(svc, 'bob');
    aliceEui = newEui();
    secondEui = newEui();
    bobEui = newEui();
    expectSuccess(await as(alice).post(`/user/device/${aliceEui}`, { label: 'cold store' }), 201);
    expectSuccess(await as(alice).post(`/user/device/${secondEui}`, { label: 'freezer' }), 201);
    expectSuccess(await as(bob).post(`/user/device/${bobEui}`, { label: 'bob’s' }), 201);
  }, 60_000);
  afterAll(() => svc?.close());

  it('is an empty list for a new account', async () => {
    const res = await bob.sessionClient.request<DashboardWire[]>(ROUTES.dashboardsList);
    expect({ status: res.status, data: res.data }).toEqual({ status: 200, data: [] });
  });

  it('creates a dashboard with each widget kind (201), lists it, reads it, changes it, deletes it, then answers 404', async () => {
    const before = Math.floor(Date.now() / 1000);
    // EUIs are taken in any case and with separators, and stored as the service writes them.
    const given = widgets(aliceEui.toLowerCase(), secondEui);
    const created = await alice.client.dashboards.create({ name: 'Cold store', widgets: given });
    expect(created).toEqual({
      uid: expect.any(Number),
      name: 'Cold store',
      widgets: widgets(aliceEui, secondEui),
      shared_role: null,
      created_by: alice.account.username,
      editable: true,
      created_unix: expect.any(Number),
      updated_unix: expect.any(Number),
    });
    expect(created.created_unix).toBeGreaterThanOrEqual(before - 1);
    expect(await alice.client.dashboards.list()).toEqual([created]);
    expect(await alice.client.dashboards.get(created.uid)).toEqual(created);

    const moved = widgets(aliceEui, secondEui).map((w) => (w.id === 'map' ? { ...w, w: 4 } : w));
    const changed = await alice.masterClient.dashboards.update(created.uid, { name: 'Cold rooms', widgets: moved });
    expect(changed).toMatchObject({ uid: created.uid, name: 'Cold rooms', widgets: moved, shared_role: null });
    expect(changed.updated_unix).toBeGreaterThanOrEqual(changed.created_unix);
    // Only what is given changes.
    expect(await alice.client.dashboards.update(created.uid, { shared_role: 'viewer' })).toMatchObject({
      name: 'Cold rooms',
      widgets: moved,
      shared_role: 'viewer',
    });
    expect(await alice.client.dashboards.update(created.uid, { shared_role: null })).toMatchObject({ shared_role: null });

    expect(await alice.client.dashboards.remove(created.uid)).toEqual({ uid: created.uid, deleted: true });
    expectError(await as(alice).get(`/user/dashboard/${created.uid}`), 404, 'NOT_FOUND', 'uid');
    expectError(await as(alice).delete(`/user/dashboard/${created.uid}`), 404, 'NOT_FOUND', 'uid');
  });

  it('names the field of each bad input and stores nothing', async () => {
    const tile = { id: 't', kind: 'latest', title: null, x: 0, y: 0, w: 3, h: 2, options: { device: aliceEui, member: 'temperature' } };
    const bad: [object, string][] = [
      [{}, 'name'],
      [{ name: '' }, 'name'],
      [{ name: 'x'.repeat(101) }, 'name'],
      [{ name: 'd', shared_role: 'owner' }, 'shared_role'],
      [{ name: 'd', widgets: {} }, 'widgets'],
      [{ name: 'd', widgets: Array.from({ length: 41 }, (_, i) => ({ ...tile, id: `t${i}`, y: i * 2 })) }, 'widgets'],
      [{ name: 'd', widgets: [{ ...tile, kind: 'table' }] }, 'widgets.0.kind'],
      [{ name: 'd', widgets: [{ ...tile, id: 'a b' }] }, 'widgets.0.id'],
      [{ name: 'd', widgets: [tile, { ...tile, y: 4 }] }, 'widgets.1.id'],
      [{ name: 'd', widgets: [{ ...tile, x: 10 }] }, 'widgets.0.x'],
      [{ name: 'd', widgets: [{ ...tile, w: 13 }] }, 'widgets.0.w'],
      [{ name: 'd', widgets: [{ ...tile, h: 0 }] }, 'widgets.0.h'],
      [{ name: 'd', widgets: [{ ...tile, y: -1 }] }, 'widgets.0.y'],
      [{ name: 'd', widgets: [tile, { ...tile, id: 'u', x: 2, y: 1 }] }, 'widgets.1.y'],
      [{ name: 'd', widgets: [{ ...tile, title: 5 }] }, 'widgets.0.title'],
      [{ name: 'd', widgets: [{ ...tile, colour: 'red' }] }, 'widgets.0.colour'],
      [{ name: 'd', widgets: [{ ...tile, options: { device: aliceEui, member: 'temperature', unit: 'K' } }] }, 'widgets.0.options.unit'],
      [{ name: 'd', widgets: [{ ...tile, options: { device: 'not-an-eui', member: 'temperature' } }] }, 'widgets.0.options.device'],
      [{ name: 'd', widgets: [{ ...tile, options: { device: aliceEui, member: 'temp-erature' } }] }, 'widgets.0.options.member'],
      [{ name: 'd', widgets: [{ ...tile, kind: 'gauge', options: { device: aliceEui, member: 'temperature', min: 10, max: 10 } }] }, 'widgets.0.options.max'],
      [{ name: 'd', widgets: [{ ...tile, kind: 'gauge', options: { device: aliceEui, member: 'temperature', min: '0', max: 10 } }] }, 'widgets.0.options.min'],
      [{ name: 'd', widgets: [{ ...tile, kind: 'chart', options: { devices: [], members: ['temperature'], period: '24h' } }] }, 'widgets.0.options.devices'],
      [
        { name: 'd', widgets: [{ ...tile, kind: 'chart', options: { devices: [aliceEui, aliceEui], members: ['temperature'], period: '24h' } }] },
        'widgets.0.options.devices',
      ],
      [{ name: 'd', widgets: [{ ...tile, kind: 'chart', options: { devices: [aliceEui], members: [], period: '24h' } }] }, 'widgets.0.options.members'],
      [
        { name: 'd', widgets: [{ ...tile, kind: 'chart', options: { devices: [aliceEui], members: ['temperature'], period: '2y' } }] },
        'widgets.0.options.period',
      ],
      [
        { name: 'd', widgets: [{ ...tile, kind: 'chart', options: { devices: [aliceEui], members: ['no_such_type'], period: '1h' } }] },
        'widgets.0.options.members',
      ],
      [
        {
          name: 'd',
          widgets: [{ ...tile, kind: 'chart', options: { devices: [aliceEui, secondEui, newEui()], members: ['a', 'b', 'c', 'd', 'e'], period: '1h' } }],
        },
        'widgets.0.options.members',
      ],
      [{ name: 'd', widgets: [{ ...tile, kind: 'map', options: { devices: [aliceEui] } }] }, 'widgets.0.options.period'],
      [{ name: 'd', widgets: [{ ...tile, kind: 'alerts', options: { devices: [], state: 'open' } }] }, 'widgets.0.options.state'],
      [{ name: 'd', widgets: [{ ...tile, options: null }] }, 'widgets.0.options'],
    ];
    const before = await count(alice.account.id);
    for (const [body, field] of bad) expectError(await as(alice).post('/user/dashboard', body), 400, 'VALIDATION_FAILED', field);
    expect(await count(alice.account.id)).toBe(before);

    const kept = await alice.client.dashboards.create({ name: 'kept', widgets: [tile as DashboardWidget] });
    for (const [body, field] of bad.filter(([b]) => 'widgets' in b || 'shared_role' in b)) {
      expectError(await as(alice).patch(`/user/dashboard/${kept.uid}`, body), 400, 'VALIDATION_FAILED', field);
    }
    expectError(await as(alice).patch(`/user/dashboard/${kept.uid}`, {}), 400, 'VALIDATION_FAILED', 'name');
    expectError(await as(alice).patch(`/user/dashboard/${kept.uid}`, { name: null }), 400, 'VALIDATION_FAILED', 'name');
    expectError(await as(alice).get('/user/dashboard/abc'), 400, 'VALIDATION_FAILED', 'uid');
    expect(await alice.client.dashboards.get(kept.uid)).toEqual(kept);
    await alice.client.dashboards.remove(kept.uid);
  });

  it('answers 401 without credentials, on every route', async () => {
    for (const [method, path] of [
      ['get', '/user/dashboard'],
      ['post', '/user/dashboard'],
      ['get', '/user/dashboard/1'],
      ['patch', '/user/dashboard/1'],
      ['delete', '/user/dashboard/1'],
    ] as const) {
      expectError(await svc.http()[method](path).send({ name: 'x' }), 401, 'AUTH_REQUIRED');
    }
    expect(await count()).toBe(0);
  });

  it('answers 404 for another account’s dashboard and for another account’s device named in a widget, changing nothing', async () => {
    const mine = await alice.client.dashboards.create({ name: 'mine', widgets: widgets(aliceEui, secondEui) });
    expectError(await as(bob).get(`/user/dashboard/${mine.uid}`), 404, 'NOT_FOUND', 'uid');
    expectError(await as(bob).patch(`/user/dashboard/${mine.uid}`, { name: 'taken' }), 404, 'NOT_FOUND', 'uid');
    expectError(await as(bob).delete(`/user/dashboard/${mine.uid}`), 404, 'NOT_FOUND', 'uid');
    expect(await bob.client.dashboards.list()).toEqual([]);

    // Bob's device in Alice's widget: 404 naming the widget's field, as another account's EUI is anywhere.
    const before = await count(alice.account.id);
    expectError(await as(alice).post('/user/dashboard', { name: 'x', widgets: widgets(aliceEui, bobEui) }), 404, 'NOT_FOUND', 'widgets.0.options.devices');
    const tile = { id: 't', kind: 'gauge', title: null, x: 0, y: 0, w: 3, h: 2, options: { device: bobEui, member: 'temperature', min: 0, max: 1 } };
    expectError(await as(alice).post('/user/dashboard', { name: 'x', widgets: [tile] }), 404, 'NOT_FOUND', 'widgets.0.options.device');
    expectError(await as(alice).patch(`/user/dashboard/${mine.uid}`, { widgets: [tile] }), 404, 'NOT_FOUND', 'widgets.0.options.device');
    expect(await count(alice.account.id)).toBe(before);
    expect(await alice.client.dashboards.get(mine.uid)).toEqual(mine);

    // A device shared with Bob is his to show.
    expectSuccess(await as(alice).post(`/user/device/share/${aliceEui}`, { username: bob.account.username }), 201);
    const his = await bob.client.dashboards.create({
      name: 'shared device',
      widgets: [{ ...tile, options: { ...tile.options, device: aliceEui } } as DashboardWidget],
    });
    expect(his.widgets[0]).toMatchObject({ options: { device: aliceEui } });
    await bob.client.dashboards.remove(his.uid);
    await alice.client.dashboards.remove(mine.uid);
  });

  it('stops at the account’s limit (409 LIMIT_REACHED) and a deletion makes room', async () => {
    const carol = await accountWithCredentials(svc, 'carol');
    const rows = Array.from({ length: MAX_DASHBOARDS_PER_ACCOUNT - 1 }, (_, i) => `(${carol.account.id}, ${carol.account.id}, 'd${i}')`).join(',');
    await ds.query(`INSERT INTO dashboards (account_id, created_by, name) VALUES ${rows}`);
    const last = await carol.client.dashboards.create({ name: 'last' });
    expectError(await as(carol).post('/user/dashboard', { name: 'one more' }), 409, 'LIMIT_REACHED');
    expect(await count(carol.account.id)).toBe(MAX_DASHBOARDS_PER_ACCOUNT);
    await carol.client.dashboards.remove(last.uid);
    expectSuccess(await as(carol).post('/user/dashboard', { name: 'one more' }), 201);
  });

  it('needs the dashboards right for changes by a key with rights, and read for reads', async () => {
    const readOnly = await createToken(svc, alice.cookie, 'API', { rights: ['read'] });
    const dashboardsOnly = await createToken(svc, alice.cookie, 'API', { rights: ['dashboards'] });
    expectSuccess(
      await svc
        .http()
        .get('/user/dashboard')
        .set(...bearer(readOnly.value)),
    );
    expectError(
      await svc
        .http()
        .post('/user/dashboard')
        .set(...bearer(readOnly.value))
        .send({ name: 'x' }),
      403,
      'RIGHT_REQUIRED',
      'Authorization',
    );
    const made = expectSuccess<DashboardWire>(
      await svc
        .http()
        .post('/user/dashboard')
        .set(...bearer(dashboardsOnly.value))
        .send({ name: 'by key' }),
      201,
    );
    expectError(
      await svc
        .http()
        .get('/user/dashboard')
        .set(...bearer(dashboardsOnly.value)),
      403,
      'RIGHT_REQUIRED',
      'Authorization',
    );
    await alice.client.dashboards.remove(made.uid);
  });

  describe('in an organisation', () => {
    let org: OrganisationWire;
    let owner: Person;
    let admin: Person;
    let operator: Person;
    let viewer: Person;
    let orgEui: string;

    const join = async (who: Person, role: string) => {
      await ds.query('UPDATE accounts SET email_verified_at = now() WHERE id = $1', [who.account.id]);
      const invitation = expectSuccess<{ uid: number }>(await as(owner).post(`/org/${org.id}/member`, { username: who.account.username, role }), 201);
      expectSuccess(await as(who).post(`/user/invitation/${invitation.uid}/accept`));
    };
    const tile = () => ({ id: 't', kind: 'latest', title: null, x: 0, y: 0, w: 3, h: 2, options: { device: orgEui, member: 'temperature' } });

    beforeAll(async () => {
      owner = await accountWithCredentials(svc, 'owner');
      admin = await accountWithCredentials(svc, 'admin');
      operator = await accountWithCredentials(svc, 'operator');
      viewer = await accountWithCredentials(svc, 'viewer');
      org = expectSuccess<OrganisationWire>(await as(owner).post('/org', { name: `boards-${randomBytes(3).toString('hex')}` }), 201);
      await join(admin, 'admin');
      await join(operator, 'operator');
      await join(viewer, 'viewer');
      orgEui = newEui();
      expectSuccess(await as(owner, org.name).post(`/user/device/${orgEui}`, { label: 'team device' }), 201);
    }, 60_000);

    it('belongs to the organisation: not in the person’s own account, and the organisation’s devices are the ones a widget may name', async () => {
      const made = expectSuccess<DashboardWire>(await as(operator, org.name).post('/user/dashboard', { name: 'team', widgets: [tile()] }), 201);
      expect(made).toMatchObject({ created_by: operator.account.username, shared_role: null, editable: true });
      expectError(await as(operator).get(`/user/dashboard/${made.uid}`), 404, 'NOT_FOUND', 'uid');
      // The person's own account does not reach the organisation's device.
      expectError(await as(operator).post('/user/dashboard', { name: 'x', widgets: [tile()] }), 404, 'NOT_FOUND', 'widgets.0.options.device');
      expectSuccess(await as(operator, org.name).delete(`/user/dashboard/${made.uid}`));
    });

    it('keeps a private dashboard to its maker, even from the owner', async () => {
      const made = expectSuccess<DashboardWire>(await as(operator, org.name).post('/user/dashboard', { name: 'private', widgets: [tile()] }), 201);
      for (const who of [owner, admin, viewer]) {
        expect(expectSuccess<DashboardWire[]>(await as(who, org.name).get('/user/dashboard')).map((d) => d.uid)).not.toContain(made.uid);
        expectError(await as(who, org.name).get(`/user/dashboard/${made.uid}`), 404, 'NOT_FOUND', 'uid');
      }
      expectError(await as(owner, org.name).patch(`/user/dashboard/${made.uid}`, { name: 'mine now' }), 404, 'NOT_FOUND', 'uid');
      expectError(await as(owner, org.name).delete(`/user/dashboard/${made.uid}`), 404, 'NOT_FOUND', 'uid');
      expect(expectSuccess<DashboardWire>(await as(operator, org.name).get(`/user/dashboard/${made.uid}`)).name).toBe('private');
      expectSuccess(await as(operator, org.name).delete(`/user/dashboard/${made.uid}`));
    });

    it('shows a shared dashboard to members of at least its role, read-only but for its maker and admins', async () => {
      const forOperators = expectSuccess<DashboardWire>(
        await as(operator, org.name).post('/user/dashboard', { name: 'operators', widgets: [tile()], shared_role: 'operator' }),
        201,
      );
      const forViewers = expectSuccess<DashboardWire>(await as(admin, org.name).post('/user/dashboard', { name: 'everyone', shared_role: 'viewer' }), 201);
      const forAdmins = expectSuccess<DashboardWire>(await as(owner, org.name).post('/user/dashboard', { name: 'admins', shared_role: 'admin' }), 201);
      const seen = async (who: Person) => expectSuccess<DashboardWire[]>(await as(who, org.name).get('/user/dashboard')).map((d) => [d.name, d.editable]);

      expect(await seen(viewer)).toEqual([['everyone', false]]);
      expect(await seen(operator)).toEqual([
        ['everyone', false],
        ['operators', true],
      ]);
      expect(await seen(admin)).toEqual([
        ['admins', true],
        ['everyone', true],
        ['operators', true],
      ]);
      expectError(await as(viewer, org.name).get(`/user/dashboard/${forOperators.uid}`), 404, 'NOT_FOUND', 'uid');
      expectError(await as(operator, org.name).get(`/user/dashboard/${forAdmins.uid}`), 404, 'NOT_FOUND', 'uid');
      expect(expectSuccess<DashboardWire>(await as(viewer, org.name).get(`/user/dashboard/${forViewers.uid}`))).toMatchObject({
        name: 'everyone',
        created_by: admin.account.username,
        editable: false,
      });

      // A viewer changes nothing (the role the route needs); an operator who did not make it neither.
      expectError(await as(viewer, org.name).post('/user/dashboard', { name: 'mine' }), 403, 'ROLE_REQUIRED');
      expectError(await as(viewer, org.name).patch(`/user/dashboard/${forViewers.uid}`, { name: 'x' }), 403, 'ROLE_REQUIRED');
      expectError(await as(viewer, org.name).delete(`/user/dashboard/${forViewers.uid}`), 403, 'ROLE_REQUIRED');
      expectError(await as(operator, org.name).patch(`/user/dashboard/${forViewers.uid}`, { name: 'x' }), 403, 'ROLE_REQUIRED', 'uid');
      expectError(await as(operator, org.name).delete(`/user/dashboard/${forViewers.uid}`), 403, 'ROLE_REQUIRED', 'uid');
      expect(expectSuccess<DashboardWire>(await as(admin, org.name).get(`/user/dashboard/${forViewers.uid}`)).name).toBe('everyone');

      // An admin changes what someone else shared, and may make it its maker's alone again.
      expect(expectSuccess<DashboardWire>(await as(admin, org.name).patch(`/user/dashboard/${forOperators.uid}`, { name: 'ops' }))).toMatchObject({
        name: 'ops',
        created_by: operator.account.username,
        editable: true,
      });
      expectSuccess(await as(admin, org.name).patch(`/user/dashboard/${forOperators.uid}`, { shared_role: null }));
      expectError(await as(admin, org.name).get(`/user/dashboard/${forOperators.uid}`), 404, 'NOT_FOUND', 'uid');
      expect(expectSuccess<DashboardWire>(await as(operator, org.name).get(`/user/dashboard/${forOperators.uid}`)).name).toBe('ops');

      expectSuccess(await as(owner, org.name).delete(`/user/dashboard/${forAdmins.uid}`));
      expectSuccess(await as(admin, org.name).delete(`/user/dashboard/${forViewers.uid}`));
      expectSuccess(await as(operator, org.name).delete(`/user/dashboard/${forOperators.uid}`));
    });

    it('keeps another organisation’s dashboards out of reach', async () => {
      const other = expectSuccess<OrganisationWire>(await as(bob).post('/org', { name: `other-${randomBytes(3).toString('hex')}` }), 201);
      const theirs = expectSuccess<DashboardWire>(await as(bob, other.name).post('/user/dashboard', { name: 'theirs', shared_role: 'viewer' }), 201);
      expectError(await as(owner, org.name).get(`/user/dashboard/${theirs.uid}`), 404, 'NOT_FOUND', 'uid');
      expectError(await as(owner, org.name).delete(`/user/dashboard/${theirs.uid}`), 404, 'NOT_FOUND', 'uid');
      expectError(await as(owner, other.name).get(`/user/dashboard/${theirs.uid}`), 404, 'NOT_FOUND', 'X-Organisation');
      expect(expectSuccess<DashboardWire>(await as(bob, other.name).get(`/user/dashboard/${theirs.uid}`)).name).toBe('theirs');
    });
  });
});
