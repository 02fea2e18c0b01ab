import type { Response } from 'supertest';
import { accountWithCredentials, bearer } from './support/accounts';
import { expectError } from './support/envelope';
import { startTestService, type TestService } from './support/harness';

/** GET /session/active, /session/cookie, /session/attributes (docs/api.md §8). */

function expectEnvelope(res: Response, status: number, data: unknown) {
  expect({ status: res.status, body: res.body }).toEqual({ status, body: { errors: [], debug: [], meta: [], messages: [], data, success: true } });
}

const nowUnix = () => Math.floor(Date.now() / 1000);

describe('/session', () => {
  let svc: TestService;
  let alice: Awaited<ReturnType<typeof accountWithCredentials>>;
  let bob: Awaited<ReturnType<typeof accountWithCredentials>>;
  let loggedInAt: number;

  beforeAll(async () => {
    svc = await startTestService();
    loggedInAt = nowUnix();
    alice = await accountWithCredentials(svc, 'alice');
    bob = await accountWithCredentials(svc, 'bob');
  });
  afterAll(() => svc?.close());

  const routes = ['/session/active', '/session/cookie', '/session/attributes'] as const;

  describe('with a session cookie', () => {
    it('GET /session/active: {active: true, expires_unix} in the future, per the configured lifetime', async () => {
      const res = await svc.http().get('/session/active').set('Cookie', alice.cookie);
      expectEnvelope(res, 200, { active: true, expires_unix: expect.any(Number) });
      const expires = res.body.data.expires_unix as number;
      expect(Number.isInteger(expires)).toBe(true);
      expect(expires).toBeGreaterThan(nowUnix());
      expect(Math.abs(expires - (nowUnix() + svc.config.session.ttlSeconds))).toBeLessThanOrEqual(120);
    });

    it('GET /session/cookie: the cookie’s attributes, never its value', async () => {
      const active = await svc.http().get('/session/active').set('Cookie', alice.cookie);
      const res = await svc.http().get('/session/cookie').set('Cookie', alice.cookie);
      expectEnvelope(res, 200, {
        name: svc.config.session.cookieName,
        expires_unix: active.body.data.expires_unix,
        http_only: true,
        secure: false,
        same_site: 'lax',
      });
      const value = alice.cookie.slice(alice.cookie.indexOf('=') + 1);
      const text = JSON.stringify(res.body);
      expect(text).not.toContain(value);
      for (const part of value.split('.')) expect(text).not.toContain(part);
    });

    it('GET /session/attributes: {user_id, username, created_unix, last_seen_unix}', async () => {
      const res = await svc.http().get('/session/attributes').set('Cookie', alice.cookie);
      expectEnvelope(res, 200, {
        user_id: alice.account.id,
        username: alice.account.username,
        created_unix: expect.any(Number),
        last_seen_unix: expect.any(Number),
      });
      const { created_unix: created, last_seen_unix: lastSeen } = res.body.data as { created_unix: number; last_seen_unix: number };
      expect(Number.isInteger(created) && Number.isInteger(lastSeen)).toBe(true);
      expect(created).toBeGreaterThanOrEqual(loggedInAt - 1);
      expect(created).toBeLessThanOrEqual(nowUnix() + 1);
      expect(lastSeen).toBeGreaterThanOrEqual(created);
      expect(lastSeen).toBeLessThanOrEqual(nowUnix() + 1);
    });

    it('describes the caller’s own session, not another account’s', async () => {
      expect((await svc.http().get('/session/attributes').set('Cookie', bob.cookie)).body.data).toMatchObject({
        user_id: bob.account.id,
        username: bob.account.username,
      });
      expect((await svc.http().get('/session/attributes').set('Cookie', alice.cookie)).body.data).toMatchObject({
        user_id: alice.account.id,
        username: alice.account.username,
      });
    });
  });

  describe('with a token instead of a session', () => {
    it('GET /session/active: {active: false, expires_unix: null}', async () => {
      for (const token of [alice.appToken, alice.masterToken]) {
        expectEnvelope(
          await svc
            .http()
            .get('/session/active')
            .set(...bearer(token)),
          200,
          { active: false, expires_unix: null },
        );
      }
    });

    it('GET /session/cookie: no expiry, the attributes a session cookie would have', async () => {
      expectEnvelope(
        await svc
          .http()
          .get('/session/cookie')
          .set(...bearer(alice.appToken)),
        200,
        {
          name: svc.config.session.cookieName,
          expires_unix: null,
          http_only: true,
          secure: false,
          same_site: 'lax',
        },
      );
    });

    it('GET /session/attributes: who the token belongs to, the session times null', async () => {
      expectEnvelope(await svc.http().get('/session/attributes').set('token', alice.appToken), 200, {
        user_id: alice.account.id,
        username: alice.account.username,
        created_unix: null,
        last_seen_unix: null,
      });
    });

    it('prefers the token when a cookie comes too', async () => {
      expectEnvelope(
        await svc
          .http()
          .get('/session/active')
          .set('Cookie', alice.cookie)
          .set(...bearer(bob.appToken)),
        200,
        { active: false, expires_unix: null },
      );
      expect(
        (
          await svc
            .http()
            .get('/session/attributes')
            .set('Cookie', alice.cookie)
            .set(...bearer(bob.appToken))
        ).body.data,
      ).toMatchObject({ user_id: bob.account.id });
    });
  });

  // TRUST_PROXY is at its default here (none), as in a deployment that did not set it: TLS ends at
  // the load balancer, which says so in X-Forwarded-Proto (issue 28).
  describe('behind a TLS load balancer, TRUST_PROXY unset', () => {
    const cookieLine = (res: Response) =>
      ((res.headers['set-cookie'] as unknown as string[] | undefined) ?? []).find((c) => c.startsWith(`${svc.config.session.cookieName}=`));
    const attributes = (line: string) => line.split(';').map((a) => a.trim().toLowerCase());
    const signIn = (account: { username: string; password: string }, proto?: string) => {
      const request = svc.http().post('/auth/login');
      if (proto !== undefined) request.set('X-Forwarded-Proto', proto);
      return request.send({ username: account.username, password: account.password });
    };

    it('sets the session cookie Secure when X-Forwarded-Proto says https, and not otherwise', async () => {
      const overTls = cookieLine(await signIn(alice.account, 'https').expect(200));
      expect(attributes(overTls!)).toEqual(expect.arrayContaining(['secure', 'httponly', 'samesite=lax']));
      // The client's side of the first proxy is the first value; letter case does not matter.
      expect(attributes(cookieLine(await signIn(alice.account, 'HTTPS, http').expect(200))!)).toContain('secure');
      for (const proto of [undefined, 'http', 'http, https', 'httpsx']) {
        const line = cookieLine(await signIn(alice.account, proto).expect(200));
        expect({ proto, secure: attributes(line!).includes('secure') }).toEqual({ proto, secure: false });
      }
      // The Secure cookie is a working session.
      const cookie = overTls!.split(';')[0]!;
      expectEnvelope(
        await svc.http().get('/session/attributes').set('Cookie', cookie).set('X-Forwarded-Proto', 'https'),
        200,
        expect.objectContaining({ user_id: alice.account.id }),
      );
    });

    it('GET /session/cookie reports secure as the cookie would be set for that request', async () => {
      const over = (proto?: string) => {
        const request = svc.http().get('/session/cookie').set('Cookie', alice.cookie);
        return proto === undefined ? request : request.set('X-Forwarded-Proto', proto);
      };
      expect((await over('https')).body.data).toMatchObject({ secure: true, http_only: true, same_site: 'lax' });
      expect((await over()).body.data).toMatchObject({ secure: false });
    });

    it('still refuses X-Forwarded-For from an untrusted peer: the address is the connection’s, in echo and in the session list', async () => {
      const forged = '203.0.113.77';
      const echo = await svc.http().get('/auth/echo').set('X-Forwarded-For', forged).set('X-Forwarded-Proto', 'https');
      expect(echo.status).toBe(200);
      expect(echo.body.data.ip).not.toBe(forged);
      expect(echo.body.data.ip).toMatch(/127\.0\.0\.1$|^::1$/);
      const res = await svc.http().post('/auth/login').set('X-Forwarded-For', forged).set('X-Forwarded-Proto', 'https').send({
        username: bob.account.username,
        password: bob.account.password,
      });
      expect(attributes(cookieLine(res)!)).toContain('secure');
      const cookie = cookieLine(res)!.split(';')[0]!;
      const sessions = (await svc.http().get('/user/session').set('Cookie', cookie).expect(200)).body.data as { current: boolean; ip: string | null }[];
      const current = sessions.find((s) => s.current);
      expect(current?.ip).toMatch(/127\.0\.0\.1$|^::1$/);
      expect(sessions.map((s) => s.ip)).not.toContain(forged);
    });
  });

  describe('without valid credentials', () => {
    it.each(routes)('%s needs credentials: 401 AUTH_REQUIRED', async (route) => {
      expectError(await svc.http().get(route), 401, 'AUTH_REQUIRED');
    });

    it.each(routes)('%s refuses an unknown token with 401 INVALID_TOKEN', async (route) => {
      expectError(
        await svc
          .http()
          .get(route)
          .set(...bearer('a'.repeat(64))),
        401,
        'INVALID_TOKEN',
      );
    });

    it.each(routes)('%s refuses a forged cookie with 401 AUTH_REQUIRED', async (route) => {
      expectError(await svc.http().get(route).set('Cookie', `${svc.config.session.cookieName}=forged.cookie`), 401, 'AUTH_REQUIRED');
    });

    it('refuses the cookie of a session that ended', async () => {
      const carol = await accountWithCredentials(svc, 'carol');
      expect((await svc.http().get('/session/active').set('Cookie', carol.cookie)).body.data.active).toBe(true);
      await svc.http().post('/auth/logout').set('Cookie', carol.cookie).expect(200);
      for (const route of routes) expectError(await svc.http().get(route).set('Cookie', carol.cookie), 401, 'AUTH_REQUIRED');
    });
  });
});
