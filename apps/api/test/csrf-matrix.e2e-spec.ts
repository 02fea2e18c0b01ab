import { getDataSourceToken } from '@nestjs/typeorm';
import { randomBytes } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { accountWithCredentials, bearer, login } from './support/accounts';
import { expectError, expectSuccess } from './support/envelope';
import { startTestService, type TestService } from './support/harness';

/*
 * Cross-site request forgery matrix. Every route that changes state and takes the session cookie
 * has one line below; a route read from the router without a line fails the test, so a new route
 * cannot slip through. Each line is called with the session cookie as a page of another origin
 * would make a browser call it — `Origin: http://evil.example`, or no Origin and
 * `Sec-Fetch-Site: cross-site` — with an empty text/plain body and with a multipart body (neither
 * needs a CORS preflight): all are refused before the handler runs and no table changes. The same
 * call from the service's own origin, from an origin in ALLOWED_ORIGINS, or with an API token is
 * not refused for its origin; multipart reaches only the upload routes.
 */
const EVIL = 'http://evil.example';
const CONSOLE = 'https://console.example.org';

/** `upload`: the route takes multipart; `json`: every other body is JSON. */
const LINES: Record<string, 'json' | 'upload'> = {
  'DELETE /auth/register': 'json',
  'POST /auth/logout': 'json',
  'POST /auth/pwdchange': 'json',
  'PATCH /user': 'json',
  'POST /user/email/verify': 'json',
  'POST /user/token': 'json',
  'DELETE /user/token': 'json',
  'DELETE /user/session': 'json',
  'DELETE /user/session/{id}': 'json',
  'POST /user/device/{eui}': 'json',
  'DELETE /user/device/{eui}': 'json',
  'POST /user/device/meta/{eui}': 'json',
  'POST /user/device/share/{eui}': 'json',
  'DELETE /user/device/share/{eui}/{uid}': 'json',
  'POST /user/device/handover/{eui}': 'json',
  'DELETE /user/device/handover/{eui}': 'json',
  'POST /user/device/handover/{eui}/accept': 'json',
  'POST /user/device/handover/{eui}/decline': 'json',
  'POST /user/device/command/{eui}': 'json',
  'POST /user/device/uplink/{eui}/simulate': 'json',
  'DELETE /user/device/command/{eui}/{uid}': 'json',
  'DELETE /user/device/command/{eui}': 'json',
  'POST /user/device/image/{eui}': 'upload',
  'DELETE /user/device/image/{eui}/{image_hash}': 'json',
  'POST /user/device/image/{eui}/{image_hash}/annotations': 'json',
  'POST /user/fence': 'json',
  'DELETE /user/fence/{uid}': 'json',
  'PATCH /user/fence/{uid}': 'json',
  'POST /user/dashboard': 'json',
  'PATCH /user/dashboard/{uid}': 'json',
  'DELETE /user/dashboard/{uid}': 'json',
  'POST /user/network': 'json',
  'DELETE /user/network/{uid}': 'json',
  'POST /user/codec': 'json',
  'DELETE /user/codec/{uid}': 'json',
  'POST /user/codec/import': 'json',
  'POST /user/codec/try': 'json',
  'PATCH /user/codec/{uid}': 'json',
  'POST /user/device/import': 'json',
  'POST /cache/invalidate/{eui}': 'json',
  'POST /cache/invalidate/all': 'json',
  'PATCH /admin/accounts/{id}': 'json',
  'POST /admin/accounts/{id}/password-reset': 'json',
  'DELETE /admin/accounts/{id}': 'json',
  'POST /feedback': 'json',
  'POST /user/integration': 'json',
  'PATCH /user/integration/{uid}': 'json',
  'DELETE /user/integration/{uid}': 'json',
  'POST /user/integration/{uid}/deliveries/{id}/redeliver': 'json',
  'POST /user/integration/{uid}/test': 'json',
  'POST /user/rule': 'json',
  'PATCH /user/rule/{uid}': 'json',
  'DELETE /user/rule/{uid}': 'json',
  'POST /user/alert/{uid}/ack': 'json',
  'POST /org': 'json',
  'PATCH /org/{uid}': 'json',
  'DELETE /org/{uid}': 'json',
  'POST /org/{uid}/member': 'json',
  'PATCH /org/{uid}/member/{account}': 'json',
  'DELETE /org/{uid}/member/{account}': 'json',
  'POST /org/{uid}/invitation': 'json',
  'DELETE /org/{uid}/invitation/{invitation}': 'json',
  'POST /user/invitation/{uid}/accept': 'json',
  'POST /user/invitation/{uid}/decline': 'json',
};

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const ADMIN = { username: 'csrf_admin', password: 'csrf-admin-password-0123' };
const TABLES = [
  'accounts',
  'api_tokens',
  'devices',
  'device_shares',
  'device_handovers',
  'commands',
  'images',
  'fences',
  'dashboards',
  'networks',
  'decoders',
  'feedback',
  'password_resets',
  'integrations',
  'integration_deliveries',
  'alert_rules',
  'alerts',
  'sessions',
  'organisation_members',
  'organisation_invitations',
];
/** What is compared of a table whose rows also move by themselves (a session's last use and expiry roll on with use). */
const COMPARED: Record<string, string> = { sessions: '(SELECT digest, account_id FROM sessions)' };

describe('CSRF: cookie-authenticated state changes from another origin', () => {
  let svc: TestService;
  let cookie: string;
  let adminCookie: string;
  let token: string;
  let eui: string;
  let routes: { method: string; path: string; auth: string }[];

  const digest = async () => {
    const [row] = (await svc.handle.app
      .get<DataSource>(getDataSourceToken(), { strict: false })
      .query(
        `SELECT ${TABLES.map((t) => `(SELECT count(*)::text || ':' || coalesce(md5(string_agg(md5(x::text), ',' ORDER BY md5(x::text))), '') FROM ${COMPARED[t] ?? t} x) AS "${t}"`).join(', ')}`,
      )) as Record<string, string>[];
    return row;
  };
  const pathOf = (template: string) =>
    template
      .replace('{eui}', eui)
      .replace('{image_hash}', 'ab'.repeat(16))
      .replace('/user/session/{id}', `/user/session/${'ab'.repeat(12)}`)
      .replace(/\{[a-z_]+\}/g, '1');
  const changing = () => routes.filter((r) => UNSAFE.has(r.method) && (r.auth === 'user' || r.auth === 'admin'));
  const cookieOf = (route: { auth: string }) => (route.auth === 'admin' ? adminCookie : cookie);

  beforeAll(async () => {
    svc = await startTestService({ env: { ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password, ALLOWED_ORIGINS: CONSOLE } });
    const owner = await accountWithCredentials(svc, 'csrf');
    cookie = owner.cookie;
    token = owner.masterToken;
    // A second session of the account: what a forged DELETE /user/session would end.
    await login(svc, owner.account);
    adminCookie = await login(svc, { id: 0, email: '', ...ADMIN });
    eui = randomBytes(8).toString('hex').toUpperCase();
    expectSuccess(
      await svc
        .http()
        .post(`/user/device/${eui}`)
        .set(...bearer(token))
        .send({}),
      201,
    );
    routes = expectSuccess(await svc.http().get('/routes'));
  });
  afterAll(() => svc?.close());

  it('has a line for every state-changing route that takes the session cookie, and none for a route that does not exist', () => {
    const keys = changing().map((r) => `${r.method} ${r.path}`);
    expect(keys.filter((k) => !(k in LINES))).toEqual([]);
    expect(Object.keys(LINES).filter((k) => !keys.includes(k))).toEqual([]);
    process.stdout.write(`csrf matrix: ${keys.length} state-changing routes\n`);
  });

  it('refuses every one from another origin (Origin, or Sec-Fetch-Site without it), with text/plain or multipart, changing nothing', async () => {
    const before = await digest();
    const outcomes: Record<string, string[]> = {};
    for (const route of changing()) {
      const call = () => svc.http()[route.method.toLowerCase() as 'post' | 'patch' | 'delete'](pathOf(route.path)).set('Cookie', cookieOf(route));
      const answers = [
        await call().set('Origin', EVIL).set('Content-Type', 'text/plain'),
        await call().set('Origin', 'null'),
        await call().set('Sec-Fetch-Site', 'cross-site'),
        await call().set('Sec-Fetch-Site', 'same-site').set('Content-Type', 'text/plain'),
        await call().set('Origin', EVIL).field('x', '1'),
      ];
      outcomes[`${route.method} ${route.path}`] = answers.map((r) => `${r.status} ${r.body?.errors?.[0]?.code}:${r.body?.errors?.[0]?.field}`);
    }
    for (const [key, got] of Object.entries(outcomes)) {
      // A multipart body to a route that takes none is refused as such (415) before its origin is judged.
      const multipart = LINES[key] === 'upload' ? '403 FORBIDDEN:Origin' : '415 UNSUPPORTED_MEDIA_TYPE:Content-Type';
      expect({ key, got }).toEqual({ key, got: ['403 FORBIDDEN:Origin', '403 FORBIDDEN:Origin', '403 FORBIDDEN:Origin', '403 FORBIDDEN:Origin', multipart] });
    }
    expect(await digest()).toEqual(before);
  });

  it('lets the same calls through from the service’s own origin, an allowed origin, or with a token', async () => {
    const own = new URL(svc.config.publicBaseUrl).origin;
    for (const route of changing().filter((r) => r.path.startsWith('/user/device/meta'))) {
      for (const origin of [own, svc.url, CONSOLE]) {
        const res = await svc.http().post(pathOf(route.path)).set('Cookie', cookie).set('Origin', origin).send({ label: 'from a friend' });
        expect({ origin, status: res.status }).toEqual({ origin, status: 200 });
      }
      const res = await svc
        .http()
        .post(pathOf(route.path))
        .set(...bearer(token))
        .set('Origin', EVIL)
        .send({ label: 'scripted' });
      expect(res.status).toBe(200);
    }
    // A client that is no browser sends neither header: curl with a cookie jar keeps working.
    expectSuccess(await svc.http().post(`/user/device/meta/${eui}`).set('Cookie', cookie).send({ label: 'curl' }));
    expectSuccess(await svc.http().post(`/user/device/meta/${eui}`).set('Cookie', cookie).set('Sec-Fetch-Site', 'same-origin').send({ label: 'same' }));
  });

  it('takes multipart only on the upload routes, whatever the credentials', async () => {
    for (const route of changing().filter((r) => LINES[`${r.method} ${r.path}`] !== 'upload')) {
      const res = await svc
        .http()
        [route.method.toLowerCase() as 'post' | 'patch' | 'delete'](pathOf(route.path))
        .set(...(route.auth === 'admin' ? (['Cookie', adminCookie] as [string, string]) : bearer(token)))
        .field('label', 'x');
      expect({ route: route.path, status: res.status, code: res.body?.errors?.[0]?.code }).toEqual({
        route: route.path,
        status: 415,
        code: 'UNSUPPORTED_MEDIA_TYPE',
      });
    }
    expectError(await svc.http().post('/auth/login').field('username', 'a').field('password', 'b'), 415, 'UNSUPPORTED_MEDIA_TYPE');
  });
});
