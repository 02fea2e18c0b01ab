import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { accountWithCredentials, bearer } from './support/accounts';
import { expectError, expectSuccess } from './support/envelope';
import { startTestService, type TestService } from './support/harness';

/**
 * Every route with the credentials it needs. A route added to the code without a line here fails
 * the test: decide its auth level (deny by default) and write it down.
 */
const EXPECTED_ROUTES: Record<string, 'none' | 'user' | 'admin' | 'ingest' | 'metrics'> = {
  'POST /auth/register': 'none',
  'DELETE /auth/register': 'user',
  'POST /auth/login': 'none',
  'POST /auth/logout': 'user',
  'POST /auth/check': 'none',
  'GET /auth/echo': 'none',
  'POST /auth/restore': 'none',
  'POST /auth/pwdchange': 'user',
  'POST /auth/verify': 'none',
  'GET /user': 'user',
  'PATCH /user': 'user',
  'POST /user/email/verify': 'user',
  'GET /user/state': 'none',
  'GET /user/token': 'user',
  'POST /user/token': 'user',
  'DELETE /user/token': 'user',
  'GET /user/session': 'user',
  'DELETE /user/session': 'user',
  'DELETE /user/session/{id}': 'user',
  'GET /session/active': 'user',
  'GET /session/cookie': 'user',
  'GET /session/attributes': 'user',
  'GET /version': 'none',
  'GET /routes': 'none',
  'POST /feedback': 'user',
  'GET /user/device': 'user',
  'GET /user/device/autocomplete': 'user',
  'POST /user/device/{eui}': 'user',
  'DELETE /user/device/{eui}': 'user',
  'GET /user/device/result/{eui}/{uid}': 'user',
  'GET /user/device/meta/all': 'user',
  'GET /user/device/meta/{eui}': 'user',
  'POST /user/device/meta/{eui}': 'user',
  'POST /user/device/share/{eui}': 'user',
  'DELETE /user/device/share/{eui}/{uid}': 'user',
  'GET /user/device/share/{eui}': 'user',
  'GET /user/device/handover': 'user',
  'POST /user/device/handover/{eui}': 'user',
  'DELETE /user/device/handover/{eui}': 'user',
  'POST /user/device/handover/{eui}/accept': 'user',
  'POST /user/device/handover/{eui}/decline': 'user',
  'GET /user/integration': 'user',
  'POST /user/integration': 'user',
  'GET /user/integration/{uid}': 'user',
  'PATCH /user/integration/{uid}': 'user',
  'DELETE /user/integration/{uid}': 'user',
  'GET /user/integration/{uid}/deliveries': 'user',
  'POST /user/integration/{uid}/deliveries/{id}/redeliver': 'user',
  'POST /user/integration/{uid}/test': 'user',
  'GET /user/rule': 'user',
  'POST /user/rule': 'user',
  'GET /user/rule/{uid}': 'user',
  'PATCH /user/rule/{uid}': 'user',
  'DELETE /user/rule/{uid}': 'user',
  'GET /user/alert': 'user',
  'GET /user/alert/{uid}': 'user',
  'POST /user/alert/{uid}/ack': 'user',
  'GET /user/device/data/type/all': 'user',
  'GET /datamodel': 'user',
  'GET /datamodel/network': 'user',
  'GET /datamodel/network/type': 'user',
  'GET /datamodel/network/{uid}': 'user',
  'GET /datamodel/network/by_type/{uid}': 'user',
  'GET /datamodel/decoder': 'user',
  'GET /datamodel/decoder/{decoder_id}': 'user',
  'GET /datamodel/data/type/all': 'user',
  'GET /datamodel/data/type/{type_id}': 'user',
  'GET /datamodel/icon': 'user',
  'GET /datamodel/device/type': 'user',
  'GET /user/fence': 'user',
  'GET /user/fence/{uid}': 'user',
  'POST /user/fence': 'user',
  'DELETE /user/fence/{uid}': 'user',
  'PATCH /user/fence/{uid}': 'user',
  'GET /user/fence/{uid}/devices': 'user',
  'GET /user/gateways': 'user',
  'GET /user/gateways/{network_ref}': 'user',
  'POST /ingest/ttn': 'ingest',
  'POST /ingest/chirpstack': 'ingest',
  'POST /ingest/rest': 'ingest',
  'POST /ingest/http/{uid}': 'ingest',
  'GET /user/device/table/{eui}': 'user',
  'GET /user/device/data/{eui}': 'user',
  'GET /user/device/live/{eui}': 'user',
  'GET /user/live': 'user',
  'GET /user/device/series/{eui}': 'user',
  'GET /user/overview': 'user',
  'GET /user/activity': 'user',
  'GET /user/dashboard': 'user',
  'POST /user/dashboard': 'user',
  'GET /user/dashboard/{uid}': 'user',
  'PATCH /user/dashboard/{uid}': 'user',
  'DELETE /user/dashboard/{uid}': 'user',
  'POST /user/device/uplink/{eui}/simulate': 'user',
  'GET /ui/config': 'user',
  'GET /test/uplink/{eui}': 'user',
  'GET /cache/status': 'admin',
  'GET /cache/status/{eui}': 'admin',
  'GET /cache/entries': 'admin',
  'POST /cache/invalidate/all': 'admin',
  'POST /cache/invalidate/{eui}': 'admin',
  'GET /user/codec': 'user',
  'POST /user/codec': 'user',
  'DELETE /user/codec/{uid}': 'user',
  'GET /user/codec/{uid}': 'user',
  'PATCH /user/codec/{uid}': 'user',
  'POST /user/codec/import': 'user',
  'POST /user/codec/try': 'user',
  'POST /user/device/import': 'user',
  'GET /user/device/command/{eui}': 'user',
  'GET /user/device/command/{eui}/available': 'user',
  'POST /user/device/command/{eui}': 'user',
  'DELETE /user/device/command/{eui}/{uid}': 'user',
  'DELETE /user/device/command/{eui}': 'user',
  'GET /user/network': 'user',
  'POST /user/network': 'user',
  'DELETE /user/network/{uid}': 'user',
  'GET /user/device/image/{eui}': 'user',
  'POST /user/device/image/{eui}': 'user',
  'GET /user/device/image/{eui}/{image_hash}': 'user',
  'DELETE /user/device/image/{eui}/{image_hash}': 'user',
  'POST /user/device/image/{eui}/{image_hash}/annotations': 'user',
  'GET /user/device/image/{eui}/{image_hash}/thumb': 'user',
  'GET /user/image': 'user',
  'GET /user/image/labels': 'user',
  'POST /ingest/image': 'ingest',
  'GET /files/image/{image_hash}': 'none',
  'GET /health/live': 'none',
  'GET /health/ready': 'none',
  // The scrape token when METRICS_TOKEN is set (as here), open otherwise; never account credentials.
  'GET /metrics': 'metrics',
  'GET /metrics/cluster': 'metrics',
  'GET /admin/info': 'admin',
  'GET /admin/accounts': 'admin',
  'GET /admin/audit': 'admin',
  'PATCH /admin/accounts/{id}': 'admin',
  'POST /admin/accounts/{id}/password-reset': 'admin',
  'GET /admin/accounts/{id}/members': 'admin',
  'DELETE /admin/accounts/{id}': 'admin',
  // Organisations (docs/api.md §20).
  'GET /auth/oidc': 'none',
  'GET /auth/oidc/{provider}/start': 'none',
  'GET /auth/oidc/{provider}/callback': 'none',
  'GET /org': 'user',
  'POST /org': 'user',
  'GET /org/{uid}': 'user',
  'PATCH /org/{uid}': 'user',
  'DELETE /org/{uid}': 'user',
  'GET /org/{uid}/member': 'user',
  'POST /org/{uid}/member': 'user',
  'PATCH /org/{uid}/member/{account}': 'user',
  'DELETE /org/{uid}/member/{account}': 'user',
  'GET /org/{uid}/invitation': 'user',
  'POST /org/{uid}/invitation': 'user',
  'DELETE /org/{uid}/invitation/{invitation}': 'user',
  'GET /org/{uid}/audit': 'user',
  'GET /user/invitation': 'user',
  'POST /user/invitation/{uid}/accept': 'user',
  'POST /user/invitation/{uid}/decline': 'user',
};

/** Routes that are browser navigations, answered with a redirect (docs/api.md §3, "Single sign-on"). */
const REDIRECTS = new Set(['GET /auth/oidc/{provider}/start', 'GET /auth/oidc/{provider}/callback']);

describe('system routes', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService({ env: { METRICS_TOKEN: 'system-test-metrics-token' } });
  });
  afterAll(() => svc?.close());

  it('GET /version answers without credentials', async () => {
    const data = expectSuccess<Record<string, unknown>>(await svc.http().get('/version'));
    expect(data).toEqual({
      version: expect.stringMatching(/^\d+\.\d+\.\d+/),
      commit: data.commit === null ? null : expect.any(String),
      api_version: '1',
      started_unix: expect.any(Number),
    });
    expect(Math.abs((data.started_unix as number) - Date.now() / 1000)).toBeLessThan(600);
  });

  it('GET /routes lists exactly the routes of the router, each with its auth level', async () => {
    const routes = expectSuccess<{ method: string; path: string; auth: string }[]>(await svc.http().get('/routes'));
    const listed = Object.fromEntries(routes.map((r) => [`${r.method} ${r.path}`, r.auth]));
    expect(listed).toEqual(EXPECTED_ROUTES);
  });

  it('every listed non-public route refuses a call without credentials', async () => {
    const routes = expectSuccess<{ method: string; path: string; auth: string }[]>(await svc.http().get('/routes'));
    for (const route of routes.filter((r) => r.auth !== 'none')) {
      const path = route.path.replace('{eui}', '70B3D57ED0001234').replace(/\{[^}]+\}/g, '1');
      const res = await svc.http()[route.method.toLowerCase() as 'get'](path).send({});
      expect({ route: `${route.method} ${route.path}`, status: res.status, code: res.body.errors?.[0]?.code }).toEqual({
        route: `${route.method} ${route.path}`,
        status: 401,
        code: 'AUTH_REQUIRED',
      });
    }
  });

  it('serves the OpenAPI document with every route, its envelope and its security', async () => {
    const res = await svc.http().get('/docs/openapi.json').expect(200);
    const doc = res.body as { paths: Record<string, Record<string, { security?: unknown[]; responses: Record<string, unknown> }>> };
    for (const [key, auth] of Object.entries(EXPECTED_ROUTES)) {
      const [method, path] = key.split(' ');
      const operation = doc.paths[path!]?.[method!.toLowerCase()];
      expect({ key, documented: Boolean(operation) }).toEqual({ key, documented: true });
      expect({ key, public: operation!.security?.length === 0 }).toEqual({ key, public: auth === 'none' });
      // A success answer; a redirect only for single sign-on's navigations (redocly.yaml).
      const success = REDIRECTS.has(key) ? '3' : '2';
      expect({ key, success: Object.keys(operation!.responses).some((s) => s.startsWith(success)) }).toEqual({ key, success: true });
    }
    const html = await svc.http().get('/docs').expect(200);
    expect(html.text).toContain('swagger');
    // Served over plain HTTP on a non-localhost address, a CSP that upgrades the page's requests to
    // HTTPS would leave it blank: the TLS decision belongs to the proxy in front.
    expect(html.headers['content-security-policy']).toBeDefined();
    expect(html.headers['content-security-policy']).not.toContain('upgrade-insecure-requests');
  });

  it('GET /health/live and /health/ready report the process, database and queues', async () => {
    expectSuccess(await svc.http().get('/health/live'));
    const ready = expectSuccess<{ status: string; details: Record<string, unknown> }>(await svc.http().get('/health/ready'));
    expect(ready.status).toBe('ok');
    expect(Object.keys(ready.details)).toEqual(expect.arrayContaining(['database', 'queue', ...(svc.config.redis.url ? ['redis'] : [])]));
  });
});

describe('readiness while migrations are pending', () => {
  let svc: TestService;
  afterAll(() => svc?.close());

  it('answers 503 UNAVAILABLE naming the database, and recovers when they are applied', async () => {
    svc = await startTestService();
    const db = svc.app.get<DataSource>(getDataSourceToken());
    const [latest] = await db.query('SELECT name FROM schema_migrations ORDER BY id DESC LIMIT 1');
    const [row] = await db.query('SELECT * FROM schema_migrations WHERE name = $1', [latest.name]);
    await db.query('DELETE FROM schema_migrations WHERE name = $1', [latest.name]);
    const res = await svc.http().get('/health/ready');
    expectError(res, 503, 'UNAVAILABLE', 'database');
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    await db.query('INSERT INTO schema_migrations (id, timestamp, name) VALUES ($1, $2, $3)', [row.id, row.timestamp, row.name]);
    expectSuccess(await svc.http().get('/health/ready'));
  });
});

describe('POST /feedback', () => {
  let svc: TestService;
  let alice: Awaited<ReturnType<typeof accountWithCredentials>>;
  beforeAll(async () => {
    svc = await startTestService();
    alice = await accountWithCredentials(svc, 'alice');
  });
  afterAll(() => svc?.close());

  it('stores feedback and answers 201 with its uid', async () => {
    const first = expectSuccess<{ uid: number }>(
      await svc
        .http()
        .post('/feedback')
        .set(...bearer(alice.appToken))
        .send({ message: 'Great service', category: 'feature', email: 'me@example.org' }),
      201,
    );
    const second = expectSuccess<{ uid: number }>(await svc.http().post('/feedback').set('Cookie', alice.cookie).send({ message: 'Again' }), 201);
    expect(second.uid).toBeGreaterThan(first.uid);
  });

  it.each([
    [{}, 'message'],
    [{ message: '' }, 'message'],
    [{ message: 'x'.repeat(5001) }, 'message'],
    [{ message: 'ok', category: 'rant' }, 'category'],
    [{ message: 'ok', email: 'not-an-address' }, 'email'],
    [{ message: 'ok', rating: 5 }, 'rating'],
  ])('refuses %j naming %s', async (body, field) => {
    expectError(
      await svc
        .http()
        .post('/feedback')
        .set(...bearer(alice.appToken))
        .send(body),
      400,
      'VALIDATION_FAILED',
      field,
    );
  });

  it('needs credentials', async () => {
    expectError(await svc.http().post('/feedback').send({ message: 'hi' }), 401, 'AUTH_REQUIRED');
  });
});
