import { randomBytes } from 'node:crypto';
import type { Response } from 'supertest';
import { bearer, createToken, login, registerAccount, type TestAccount } from './support/accounts';
import { expectError, expectSuccess } from './support/envelope';
import { startTestService, type TestService } from './support/harness';
import { startSmtpServer } from './support/smtp-server';

/** POST/DELETE /auth/register, /auth/login, /auth/logout, /auth/check, /auth/echo, /auth/restore, /auth/pwdchange (docs/api.md §3, §11). */

// --- helpers --------------------------------------------------------------------------------

/** The whole success envelope, every member. */
function expectEnvelope(res: Response, status: number, data: unknown, messages: unknown = []) {
  expect({ status: res.status, body: res.body }).toEqual({ status, body: { errors: [], debug: [], meta: [], messages, data, success: true } });
}

function setCookies(res: Response): string[] {
  const header = res.headers['set-cookie'] as unknown as string[] | string | undefined;
  return header === undefined ? [] : Array.isArray(header) ? header : [header];
}

/** The attributes of a Set-Cookie line, lower-cased names; flags map to true. */
function cookieAttributes(line: string): Map<string, string | true> {
  const attributes = new Map<string, string | true>();
  for (const part of line.split(';').slice(1)) {
    const [name, ...value] = part.trim().split('=');
    attributes.set(name!.toLowerCase(), value.length ? value.join('=') : true);
  }
  return attributes;
}

let counter = 0;
const unique = (prefix: string) => `${prefix}${++counter}_${randomBytes(3).toString('hex')}`;
const newPassword = () => `new-pw-${randomBytes(8).toString('hex')}`;

describe('/auth', () => {
  let svc: TestService;
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;

  const sessionCookieLine = (res: Response) => setCookies(res).find((c) => c.startsWith(`${svc.config.session.cookieName}=`));
  const loginRequest = (username: string, password: string) => svc.http().post('/auth/login').send({ username, password });
  const me = (header: [string, string]) =>
    svc
      .http()
      .get('/user')
      .set(...header);
  const withCookie = (cookie: string): [string, string] => ['Cookie', cookie];

  /** A fresh account with a session, an app token and a master token. */
  async function freshAccount(prefix: string) {
    const account = await registerAccount(svc, prefix);
    const cookie = await login(svc, account);
    const app = await createToken(svc, cookie, 'API');
    const master = await createToken(svc, cookie, 'master');
    return { account, cookie, appToken: app.value, masterToken: master.value };
  }

  /** Whether these credentials are (still) valid, without starting a session. */
  async function passwordWorks(account: TestAccount, password: string): Promise<boolean> {
    return expectSuccess<{ valid: boolean }>(await svc.http().post('/auth/check').send({ username: account.username, password })).valid;
  }

  beforeAll(async () => {
    smtp = await startSmtpServer();
    svc = await startTestService({ env: { SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, TRUST_PROXY: 'loopback' } });
  });
  afterAll(async () => {
    await svc?.close();
    await smtp?.close();
  });

  // ------------------------------------------------------------------------------------------
  describe('POST /auth/register', () => {
    const validBody = () => {
      const username = unique('reg');
      return { username, email: `${username}@example.org`, password: 'correct horse battery' };
    };

    it('creates an account: 201 {id}, with the defaults of a new user', async () => {
      const body = { ...validBody(), fullname: 'Regina Example' };
      const res = await svc.http().post('/auth/register').send(body);
      expectEnvelope(res, 201, { id: expect.any(Number) });
      const id = res.body.data.id as number;
      expect(Number.isInteger(id) && id > 0).toBe(true);

      const cookie = await login(svc, { id, ...body });
      const account = expectSuccess<Record<string, unknown>>(await me(withCookie(cookie)));
      expect(account).toEqual({
        id,
        username: body.username,
        fullname: 'Regina Example',
        email: body.email,
        email_verified: false,
        email_pending: null,
        password: '********',
        consent: 0,
        active: 1,
        groupid: 2,
        created: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
        last_login: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
        subscription: 'free',
        expiration: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
        max_devices: 50,
        login_count: 1,
        // Neither the account nor the platform (no UPLINK_RETENTION_DAYS here) limits it: kept forever.
        uplink_retention_effective_days: null,
      });
      // The default expiration period is 365 days.
      const days = (Date.parse(`${account.expiration as string}T00:00:00Z`) - Date.now()) / 86_400_000;
      expect(days).toBeGreaterThan(363);
      expect(days).toBeLessThan(366);
    });

    it('keeps usernames unique case-insensitively: 409 USERNAME_TAKEN, storing nothing', async () => {
      const first = validBody();
      await svc.http().post('/auth/register').send(first).expect(201);
      const other = validBody();
      expectError(
        await svc
          .http()
          .post('/auth/register')
          .send({ ...other, username: first.username.toUpperCase() }),
        409,
        'USERNAME_TAKEN',
        'username',
      );
      expectError(
        await svc
          .http()
          .post('/auth/register')
          .send({ ...other, username: first.username }),
        409,
        'USERNAME_TAKEN',
        'username',
      );
      // The refused request's e-mail address was not taken by it.
      expectEnvelope(await svc.http().post('/auth/register').send(other), 201, { id: expect.any(Number) });
    });

    it('keeps e-mail addresses unique: 409 EMAIL_TAKEN, storing nothing', async () => {
      const first = validBody();
      await svc.http().post('/auth/register').send(first).expect(201);
      const other = validBody();
      expectError(
        await svc
          .http()
          .post('/auth/register')
          .send({ ...other, email: first.email }),
        409,
        'EMAIL_TAKEN',
        'email',
      );
      expectError(
        await svc
          .http()
          .post('/auth/register')
          .send({ ...other, email: first.email.toUpperCase() }),
        409,
        'EMAIL_TAKEN',
        'email',
      );
      // The refused request's username was not taken by it.
      expectEnvelope(await svc.http().post('/auth/register').send(other), 201, { id: expect.any(Number) });
    });

    type Body = Record<string, unknown>;
    it.each<[string, (b: Body) => Body, string]>([
      ['a 2-character username', (b) => ({ ...b, username: 'ab' }), 'username'],
      ['a username with a space', (b) => ({ ...b, username: 'bad name' }), 'username'],
      ['a username with a slash', (b) => ({ ...b, username: 'bad/name' }), 'username'],
      ['a 65-character username', (b) => ({ ...b, username: 'u'.repeat(65) }), 'username'],
      ['a numeric username', (b) => ({ ...b, username: 12345 }), 'username'],
      ['no username', ({ username: _u, ...b }) => b, 'username'],
      ['a malformed e-mail address', (b) => ({ ...b, email: 'not-an-address' }), 'email'],
      ['no e-mail address', ({ email: _e, ...b }) => b, 'email'],
      ['a 9-character password', (b) => ({ ...b, password: '123456789' }), 'password'],
      ['a 257-character password', (b) => ({ ...b, password: 'p'.repeat(257) }), 'password'],
      ['a numeric password', (b) => ({ ...b, password: 12345678901 }), 'password'],
      ['no password', ({ password: _p, ...b }) => b, 'password'],
      ['a 201-character fullname', (b) => ({ ...b, fullname: 'f'.repeat(201) }), 'fullname'],
      ['a numeric fullname', (b) => ({ ...b, fullname: 42 }), 'fullname'],
      ['an unknown member groupid', (b) => ({ ...b, groupid: 1 }), 'groupid'],
      ['an unknown member subscription', (b) => ({ ...b, subscription: 'premium' }), 'subscription'],
    ])('refuses %s with 400 VALIDATION_FAILED naming it, storing nothing', async (_what, mutate, field) => {
      const body = validBody();
      expectError(await svc.http().post('/auth/register').send(mutate(body)), 400, 'VALIDATION_FAILED', field);
      // Neither the username nor the e-mail address was taken by the refused request.
      expectEnvelope(await svc.http().post('/auth/register').send(body), 201, { id: expect.any(Number) });
    });

    it('names each bad member in its own entry', async () => {
      const errors = expectError(
        await svc.http().post('/auth/register').send({ username: 'x', email: 'y', password: 'z', extra: 1 }),
        400,
        'VALIDATION_FAILED',
      );
      expect(errors.map((e) => e.field).sort()).toEqual(['email', 'extra', 'password', 'username']);
    });
  });

  // ------------------------------------------------------------------------------------------
  describe('DELETE /auth/register', () => {
    it('deletes the account with a session: its tokens, sessions and login all stop working', async () => {
      const a = await freshAccount('del');
      const secondCookie = await login(svc, a.account);
      const res = await svc.http().delete('/auth/register').set('Cookie', a.cookie).send({ password: a.account.password });
      expectEnvelope(res, 200, { id: a.account.id, deleted: true });

      expectError(await me(bearer(a.appToken)), 401, 'INVALID_TOKEN');
      expectError(await me(bearer(a.masterToken)), 401, 'INVALID_TOKEN');
      expectError(await me(withCookie(a.cookie)), 401, 'AUTH_REQUIRED');
      expectError(await me(withCookie(secondCookie)), 401, 'AUTH_REQUIRED');
      const loginAgain = await loginRequest(a.account.username, a.account.password);
      expectError(loginAgain, 401, 'INVALID_CREDENTIALS');
      expect(sessionCookieLine(loginAgain)).toBeUndefined();
      // Everything it owned is gone: its username and address are free again.
      expectEnvelope(
        await svc.http().post('/auth/register').send({ username: a.account.username, email: a.account.email, password: a.account.password }),
        201,
        { id: expect.any(Number) },
      );
    });

    it('deletes the account with a master token', async () => {
      const a = await freshAccount('delm');
      expectEnvelope(
        await svc
          .http()
          .delete('/auth/register')
          .set(...bearer(a.masterToken))
          .send({ password: a.account.password }),
        200,
        { id: a.account.id, deleted: true },
      );
      expectError(await me(bearer(a.masterToken)), 401, 'INVALID_TOKEN');
      expectError(await me(bearer(a.appToken)), 401, 'INVALID_TOKEN');
      expectError(await me(withCookie(a.cookie)), 401, 'AUTH_REQUIRED');
      expectError(await loginRequest(a.account.username, a.account.password), 401, 'INVALID_CREDENTIALS');
    });

    it('refuses a wrong password with 403 WRONG_PASSWORD and keeps the account', async () => {
      const a = await freshAccount('delw');
      expectError(await svc.http().delete('/auth/register').set('Cookie', a.cookie).send({ password: 'not the password' }), 403, 'WRONG_PASSWORD', 'password');
      expect(expectSuccess<{ id: number }>(await me(bearer(a.appToken))).id).toBe(a.account.id);
      expect(expectSuccess<{ id: number }>(await me(withCookie(a.cookie))).id).toBe(a.account.id);
    });

    it('refuses an app token with 403 FORBIDDEN, even with the right password', async () => {
      const a = await freshAccount('dela');
      expectError(
        await svc
          .http()
          .delete('/auth/register')
          .set(...bearer(a.appToken))
          .send({ password: a.account.password }),
        403,
        'FORBIDDEN',
      );
      expect(expectSuccess<{ id: number }>(await me(bearer(a.appToken))).id).toBe(a.account.id);
    });

    it('needs credentials: 401 AUTH_REQUIRED', async () => {
      expectError(await svc.http().delete('/auth/register').send({ password: 'whatever-password' }), 401, 'AUTH_REQUIRED');
      expectError(
        await svc
          .http()
          .delete('/auth/register')
          .set(...bearer('e'.repeat(64)))
          .send({ password: 'whatever-password' }),
        401,
        'INVALID_TOKEN',
      );
    });

    it.each<[string, (pw: string) => Record<string, unknown>, string]>([
      ['no password', () => ({}), 'password'],
      ['an empty password', () => ({ password: '' }), 'password'],
      ['a numeric password', () => ({ password: 1234567890 }), 'password'],
      ['an unknown member', (pw) => ({ password: pw, id: 1 }), 'id'],
    ])('refuses %s with 400 VALIDATION_FAILED, deleting nothing', async (_what, body, field) => {
      const account = await registerAccount(svc, 'delv');
      const cookie = await login(svc, account);
      expectError(await svc.http().delete('/auth/register').set('Cookie', cookie).send(body(account.password)), 400, 'VALIDATION_FAILED', field);
      expect(expectSuccess<{ id: number }>(await me(withCookie(cookie))).id).toBe(account.id);
    });
  });

  // ------------------------------------------------------------------------------------------
  describe('POST /auth/login', () => {
    it('starts a session: 200 {authenticated: true} and an HttpOnly, SameSite=Lax cookie, not Secure over HTTP', async () => {
      const account = await registerAccount(svc, 'login');
      const res = await loginRequest(account.username, account.password);
      expectEnvelope(res, 200, { authenticated: true });
      const line = sessionCookieLine(res)!;
      expect(line).toBeDefined();
      const attributes = cookieAttributes(line);
      expect(attributes.get('httponly')).toBe(true);
      expect(String(attributes.get('samesite')).toLowerCase()).toBe('lax');
      expect(attributes.has('secure')).toBe(false);
      expect(attributes.get('path')).toBe('/');
      // Expiry from configuration (rolling): about SESSION_TTL_SECONDS from now.
      const expires = Date.parse(String(attributes.get('expires')));
      expect(Math.abs(expires - (Date.now() + svc.config.session.ttlSeconds * 1000))).toBeLessThan(60_000);
      // The value is opaque: neither the username nor the password.
      const value = line.split(';')[0]!.slice(svc.config.session.cookieName.length + 1);
      expect(value.length).toBeGreaterThan(40);
      expect(value).not.toContain(account.username);

      expect(expectSuccess<{ id: number }>(await me(withCookie(line.split(';')[0]!))).id).toBe(account.id);
    });

    it('marks the cookie Secure when the load balancer says the request came over TLS', async () => {
      const account = await registerAccount(svc, 'tls');
      const res = await svc.http().post('/auth/login').set('X-Forwarded-Proto', 'https').send({ username: account.username, password: account.password });
      expectEnvelope(res, 200, { authenticated: true });
      const attributes = cookieAttributes(sessionCookieLine(res)!);
      expect(attributes.get('secure')).toBe(true);
      expect(attributes.get('httponly')).toBe(true);
      expect(String(attributes.get('samesite')).toLowerCase()).toBe('lax');
    });

    it('accepts the e-mail address in place of the username', async () => {
      const account = await registerAccount(svc, 'bymail');
      const res = await loginRequest(account.email, account.password);
      expectEnvelope(res, 200, { authenticated: true });
      const cookie = sessionCookieLine(res)!.split(';')[0]!;
      expect(expectSuccess<{ id: number; username: string }>(await me(withCookie(cookie)))).toMatchObject({ id: account.id, username: account.username });
    });

    it('answers a wrong password and an unknown user alike: 401 INVALID_CREDENTIALS, no cookie', async () => {
      const account = await registerAccount(svc, 'wrong');
      const wrong = await loginRequest(account.username, 'not the password');
      const unknown = await loginRequest(unique('nobody'), account.password);
      const wrongErrors = expectError(wrong, 401, 'INVALID_CREDENTIALS');
      const unknownErrors = expectError(unknown, 401, 'INVALID_CREDENTIALS');
      expect(unknownErrors).toEqual(wrongErrors);
      expect(wrongErrors).toHaveLength(1);
      expect(sessionCookieLine(wrong)).toBeUndefined();
      expect(sessionCookieLine(unknown)).toBeUndefined();
    });

    it('issues a new session id at every login: a cookie sent to login is no longer valid afterwards', async () => {
      const account = await registerAccount(svc, 'fixation');
      const first = await login(svc, account);
      const res = await svc.http().post('/auth/login').set('Cookie', first).send({ username: account.username, password: account.password });
      expectEnvelope(res, 200, { authenticated: true });
      const second = sessionCookieLine(res)!.split(';')[0]!;
      expect(second).not.toBe(first);
      expectError(await me(withCookie(first)), 401, 'AUTH_REQUIRED');
      expect(expectSuccess<{ id: number }>(await me(withCookie(second))).id).toBe(account.id);
    });

    it.each<[string, Record<string, unknown>, string]>([
      ['no username', { password: 'some password' }, 'username'],
      ['an empty username', { username: '', password: 'some password' }, 'username'],
      ['a numeric username', { username: 42, password: 'some password' }, 'username'],
      ['no password', { username: 'someone' }, 'password'],
      ['an empty password', { username: 'someone', password: '' }, 'password'],
      ['an unknown member', { username: 'someone', password: 'some password', remember: true }, 'remember'],
    ])('refuses %s with 400 VALIDATION_FAILED and starts no session', async (_what, body, field) => {
      const res = await svc.http().post('/auth/login').send(body);
      expectError(res, 400, 'VALIDATION_FAILED', field);
      expect(sessionCookieLine(res)).toBeUndefined();
    });

    it('starts no session for valid credentials sent with an unknown member', async () => {
      const account = await registerAccount(svc, 'loginx');
      const res = await svc.http().post('/auth/login').send({ username: account.username, password: account.password, groupid: 1 });
      expectError(res, 400, 'VALIDATION_FAILED', 'groupid');
      expect(sessionCookieLine(res)).toBeUndefined();
      // The login was not counted either.
      const cookie = await login(svc, account);
      expect(expectSuccess<{ login_count: number }>(await me(withCookie(cookie))).login_count).toBe(1);
    });
  });

  // ------------------------------------------------------------------------------------------
  describe('POST /auth/logout', () => {
    it('answers {authenticated: false} and destroys the session server-side', async () => {
      const account = await registerAccount(svc, 'logout');
      const cookie = await login(svc, account);
      const other = await login(svc, account);
      const res = await svc.http().post('/auth/logout').set('Cookie', cookie);
      expectEnvelope(res, 200, { authenticated: false });
      // The browser is told to drop the cookie...
      const cleared = sessionCookieLine(res);
      expect(cleared).toBeDefined();
      expect(cleared!.split(';')[0]!).toBe(`${svc.config.session.cookieName}=`);
      expect(Date.parse(String(cookieAttributes(cleared!).get('expires')))).toBeLessThanOrEqual(Date.now());
      // ...and a client that keeps it anyway gets nowhere: the session no longer exists.
      expectError(await me(withCookie(cookie)), 401, 'AUTH_REQUIRED');
      expectError(await svc.http().post('/auth/logout').set('Cookie', cookie), 401, 'AUTH_REQUIRED');
      // Only that session ended.
      expect(expectSuccess<{ id: number }>(await me(withCookie(other))).id).toBe(account.id);
    });

    it('needs credentials: 401 AUTH_REQUIRED', async () => {
      expectError(await svc.http().post('/auth/logout'), 401, 'AUTH_REQUIRED');
      expectError(await svc.http().post('/auth/logout').set('Cookie', `${svc.config.session.cookieName}=forged.value`), 401, 'AUTH_REQUIRED');
    });
  });

  // ------------------------------------------------------------------------------------------
  describe('POST /auth/check', () => {
    let account: TestAccount;
    beforeAll(async () => {
      account = await registerAccount(svc, 'check');
    });

    it('answers {valid: true} for good credentials, by username or e-mail, and never sets a cookie', async () => {
      for (const username of [account.username, account.email]) {
        const res = await svc.http().post('/auth/check').send({ username, password: account.password });
        expectEnvelope(res, 200, { valid: true });
        expect(setCookies(res)).toEqual([]);
      }
    });

    it('answers 200 {valid: false} for a wrong password or an unknown user', async () => {
      for (const body of [
        { username: account.username, password: 'not the password' },
        { username: unique('ghost'), password: account.password },
      ]) {
        const res = await svc.http().post('/auth/check').send(body);
        expectEnvelope(res, 200, { valid: false });
        expect(setCookies(res)).toEqual([]);
      }
    });

    it('does not count as a login', async () => {
      const cookie = await login(svc, account);
      const before = expectSuccess<{ login_count: number; last_login: string }>(await me(withCookie(cookie)));
      await svc.http().post('/auth/check').send({ username: account.username, password: account.password }).expect(200);
      expect(expectSuccess<{ login_count: number }>(await me(withCookie(cookie))).login_count).toBe(before.login_count);
    });

    it.each<[string, Record<string, unknown>, string]>([
      ['no username', { password: 'some password' }, 'username'],
      ['a numeric password', { username: 'someone', password: 1234567890 }, 'password'],
      ['no password', { username: 'someone' }, 'password'],
      ['an unknown member', { username: 'someone', password: 'some password', session: true }, 'session'],
    ])('refuses %s with 400 VALIDATION_FAILED', async (_what, body, field) => {
      const res = await svc.http().post('/auth/check').send(body);
      expectError(res, 400, 'VALIDATION_FAILED', field);
      expect(setCookies(res)).toEqual([]);
    });
  });

  // ------------------------------------------------------------------------------------------
  describe('GET /auth/echo', () => {
    it('needs no credentials and answers {method, path, query, ip, user_agent, authenticated}', async () => {
      const res = await svc.http().get('/auth/echo?a=1&b=two').set('User-Agent', 'dts-e2e/1.0');
      expectEnvelope(res, 200, {
        method: 'GET',
        path: '/auth/echo',
        query: { a: '1', b: 'two' },
        ip: expect.stringMatching(/^(::ffff:)?127\.0\.0\.1$|^::1$/),
        user_agent: 'dts-e2e/1.0',
        authenticated: false,
      });
    });

    it('takes the client address from a trusted load balancer', async () => {
      const data = expectSuccess<{ ip: string }>(await svc.http().get('/auth/echo').set('X-Forwarded-For', '203.0.113.7'));
      expect(data.ip).toBe('203.0.113.7');
    });

    it('says whether the request is authenticated but never echoes the cookie or the token', async () => {
      const a = await freshAccount('echo');
      const cookieValue = a.cookie.slice(a.cookie.indexOf('=') + 1);
      const requests: [string, Response][] = [
        ['cookie', await svc.http().get('/auth/echo').set('Cookie', a.cookie)],
        [
          'bearer',
          await svc
            .http()
            .get('/auth/echo')
            .set(...bearer(a.appToken)),
        ],
        ['bare Authorization', await svc.http().get('/auth/echo').set('Authorization', a.masterToken)],
        ['token header', await svc.http().get('/auth/echo').set('token', a.appToken)],
      ];
      for (const [how, res] of requests) {
        expect({ how, data: expectSuccess<{ authenticated: boolean }>(res) }).toMatchObject({ how, data: { authenticated: true } });
        const text = JSON.stringify(res.body);
        for (const secret of [cookieValue, cookieValue.split('.')[0], a.appToken, a.masterToken]) expect(text).not.toContain(secret);
        expect(text).not.toContain(svc.config.session.cookieName);
      }
    });

    it('does not fail for bad credentials: authenticated is false', async () => {
      const invalid = 'c'.repeat(64);
      const res = await svc
        .http()
        .get('/auth/echo')
        .set(...bearer(invalid));
      expect(expectSuccess<{ authenticated: boolean }>(res).authenticated).toBe(false);
      expect(JSON.stringify(res.body)).not.toContain(invalid);
    });
  });

  // ------------------------------------------------------------------------------------------
  describe('POST /auth/restore', () => {
    /** Step 1 for this address; returns the token from the mail the worker sends. */
    async function resetToken(email: string): Promise<string> {
      expectEnvelope(await svc.http().post('/auth/restore').send({ email }), 200, null, [expect.any(String)]);
      const mail = await smtp.waitForMail(email, 'Password reset');
      const token = /\b([0-9a-f]{64})\b/.exec(mail.text)?.[1];
      if (!token) throw new Error(`no 64-hex token in the mail: ${mail.text}`);
      return token;
    }

    it('step 1 answers a known and an unknown address alike, and mails a token only to the known one', async () => {
      const account = await registerAccount(svc, 'restore');
      const unknownAddress = `${unique('nobody')}@example.org`;

      // A refused request mails nothing (checked below: one mail only).
      expectError(await svc.http().post('/auth/restore').send({ email: account.email, extra: 1 }), 400, 'VALIDATION_FAILED', 'extra');

      const unknown = await svc.http().post('/auth/restore').send({ email: unknownAddress });
      const known = await svc.http().post('/auth/restore').send({ email: account.email });
      expectEnvelope(known, 200, null, [expect.any(String)]);
      expect(unknown.status).toBe(known.status);
      expect(unknown.body).toEqual(known.body);

      const mail = await smtp.waitForMail(account.email, 'Password reset');
      expect(mail.text).toMatch(/\b[0-9a-f]{64}\b/);
      expect(mail.raw).not.toContain(account.password);
      expect(smtp.mailsTo(account.email, 'Password reset')).toHaveLength(1);
      expect(smtp.mails.filter((m) => m.to.includes(unknownAddress.toLowerCase()))).toHaveLength(0);
    });

    it('step 2 refuses incomplete or mixed forms carrying a real token, changing nothing', async () => {
      const account = await registerAccount(svc, 'restorev');
      const cookie = await login(svc, account);
      const token = await resetToken(account.email);
      const password = newPassword();
      for (const [body, field] of [
        [{ token }, 'password'],
        [{ token, password: 'short' }, 'password'],
        [{ token, password, extra: true }, 'extra'],
        [{ token, password, email: account.email }, 'email'],
      ] as const) {
        expectError(await svc.http().post('/auth/restore').send(body), 400, 'VALIDATION_FAILED', field);
      }
      expect(await passwordWorks(account, account.password)).toBe(true);
      expect(await passwordWorks(account, password)).toBe(false);
      expect(expectSuccess<{ id: number }>(await me(withCookie(cookie))).id).toBe(account.id);
    });

    it('step 2 {token, password} sets the password, ends every session of the account, and the token works once', async () => {
      const a = await freshAccount('restored');
      const otherCookie = await login(svc, a.account);
      const token = await resetToken(a.account.email);
      const password = newPassword();

      // A refused mixed form before does not use the token up.
      expectError(await svc.http().post('/auth/restore').send({ token, password, email: a.account.email }), 400, 'VALIDATION_FAILED', 'email');

      expectEnvelope(await svc.http().post('/auth/restore').send({ token, password }), 200, null, [expect.any(String)]);
      expectError(await loginRequest(a.account.username, a.account.password), 401, 'INVALID_CREDENTIALS');
      expectError(await me(withCookie(a.cookie)), 401, 'AUTH_REQUIRED');
      expectError(await me(withCookie(otherCookie)), 401, 'AUTH_REQUIRED');
      const fresh = await login(svc, { ...a.account, password });
      expect(expectSuccess<{ id: number }>(await me(withCookie(fresh))).id).toBe(a.account.id);

      // Single use.
      expectError(await svc.http().post('/auth/restore').send({ token, password: newPassword() }), 400, 'INVALID_RESET_TOKEN', 'token');
      expect(await passwordWorks(a.account, password)).toBe(true);
    });

    it('refuses a made-up token with 400 INVALID_RESET_TOKEN', async () => {
      expectError(
        await svc
          .http()
          .post('/auth/restore')
          .send({ token: randomBytes(32).toString('hex'), password: newPassword() }),
        400,
        'INVALID_RESET_TOKEN',
        'token',
      );
    });

    it.each<[string, Record<string, unknown>, string]>([
      ['an empty body', {}, 'email'],
      ['a malformed address', { email: 'not-an-address' }, 'email'],
      ['a numeric address', { email: 42 }, 'email'],
      ['an address with a password', { email: 'someone@example.org', password: 'a new password' }, 'password'],
      ['a token that is not 64 hex characters', { token: 'abc123', password: 'a new password' }, 'token'],
    ])('refuses %s with 400 VALIDATION_FAILED', async (_what, body, field) => {
      expectError(await svc.http().post('/auth/restore').send(body), 400, 'VALIDATION_FAILED', field);
    });
  });

  // ------------------------------------------------------------------------------------------
  describe('POST /auth/pwdchange', () => {
    it('changes the password with a session: other sessions end, the caller’s stays', async () => {
      const a = await freshAccount('pwd');
      const other = await login(svc, a.account);
      const password = newPassword();
      const res = await svc.http().post('/auth/pwdchange').set('Cookie', a.cookie).send({ current_password: a.account.password, new_password: password });
      expectEnvelope(res, 200, null, [expect.any(String)]);

      expect(expectSuccess<{ id: number }>(await me(withCookie(a.cookie))).id).toBe(a.account.id);
      expectError(await me(withCookie(other)), 401, 'AUTH_REQUIRED');
      expectError(await loginRequest(a.account.username, a.account.password), 401, 'INVALID_CREDENTIALS');
      await login(svc, { ...a.account, password });
    });

    it('changes the password with a master token, ending the account’s sessions', async () => {
      const a = await freshAccount('pwdm');
      const password = newPassword();
      expectEnvelope(
        await svc
          .http()
          .post('/auth/pwdchange')
          .set(...bearer(a.masterToken))
          .send({ current_password: a.account.password, new_password: password }),
        200,
        null,
        [expect.any(String)],
      );
      expect(await passwordWorks(a.account, password)).toBe(true);
      expect(await passwordWorks(a.account, a.account.password)).toBe(false);
      expectError(await me(withCookie(a.cookie)), 401, 'AUTH_REQUIRED');
      expectSuccess(await me(bearer(a.masterToken)));
    });

    it('refuses a wrong current password with 403 WRONG_PASSWORD, changing nothing', async () => {
      const a = await freshAccount('pwdw');
      const other = await login(svc, a.account);
      expectError(
        await svc.http().post('/auth/pwdchange').set('Cookie', a.cookie).send({ current_password: 'not the password', new_password: newPassword() }),
        403,
        'WRONG_PASSWORD',
        'current_password',
      );
      expect(await passwordWorks(a.account, a.account.password)).toBe(true);
      expectSuccess(await me(withCookie(other)));
    });

    it('refuses an app token with 403 FORBIDDEN, changing nothing', async () => {
      const a = await freshAccount('pwda');
      expectError(
        await svc
          .http()
          .post('/auth/pwdchange')
          .set(...bearer(a.appToken))
          .send({ current_password: a.account.password, new_password: newPassword() }),
        403,
        'FORBIDDEN',
      );
      expect(await passwordWorks(a.account, a.account.password)).toBe(true);
      expectSuccess(await me(withCookie(a.cookie)));
    });

    it('needs credentials: 401 AUTH_REQUIRED', async () => {
      expectError(await svc.http().post('/auth/pwdchange').send({ current_password: 'old password!', new_password: 'new password!' }), 401, 'AUTH_REQUIRED');
    });

    describe('validation', () => {
      let a: Awaited<ReturnType<typeof freshAccount>>;
      let other: string;
      beforeAll(async () => {
        a = await freshAccount('pwdv');
        other = await login(svc, a.account);
      });

      it.each<[string, (pw: string) => Record<string, unknown>, string]>([
        ['no current_password', () => ({ new_password: 'a long new password' }), 'current_password'],
        ['no new_password', (pw) => ({ current_password: pw }), 'new_password'],
        ['a 9-character new_password', (pw) => ({ current_password: pw, new_password: '123456789' }), 'new_password'],
        ['a 257-character new_password', (pw) => ({ current_password: pw, new_password: 'n'.repeat(257) }), 'new_password'],
        ['a numeric new_password', (pw) => ({ current_password: pw, new_password: 12345678901 }), 'new_password'],
        ['an unknown member', (pw) => ({ current_password: pw, new_password: 'a long new password', password: 'x' }), 'password'],
      ])('refuses %s with 400 VALIDATION_FAILED, changing nothing', async (_what, body, field) => {
        expectError(await svc.http().post('/auth/pwdchange').set('Cookie', a.cookie).send(body(a.account.password)), 400, 'VALIDATION_FAILED', field);
        expect(await passwordWorks(a.account, a.account.password)).toBe(true);
        expectSuccess(await me(withCookie(other)));
      });
    });
  });
});

// ------------------------------------------------------------------------------------------------
describe('/auth throttling', () => {
  let svc: TestService;

  beforeAll(async () => {
    svc = await startTestService({ env: { AUTH_RATE_LIMIT_PER_MINUTE: '3' } });
  });
  afterAll(() => svc?.close());

  it('refuses the 4th login attempt for one username from one client with 429 RATE_LIMITED and Retry-After, not another username', async () => {
    const target = await registerAccount(svc, 'brute');
    const bystander = await registerAccount(svc, 'bystander');
    const attempt = (username: string, password: string) => svc.http().post('/auth/login').send({ username, password });

    for (let i = 0; i < 3; i++) expectError(await attempt(target.username, 'wrong password!'), 401, 'INVALID_CREDENTIALS');
    const limited = await attempt(target.username, 'wrong password!');
    expectError(limited, 429, 'RATE_LIMITED');
    const retryAfter = Number(limited.headers['retry-after']);
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    // Even the right password, or the same name in other letter case, waits.
    expectError(await attempt(target.username, target.password), 429, 'RATE_LIMITED');
    expectError(await attempt(target.username.toUpperCase(), target.password), 429, 'RATE_LIMITED');

    // Another username from the same client is not locked out.
    const other = await attempt(bystander.username, bystander.password);
    expect(other.status).toBe(200);
    expect(other.body.data).toEqual({ authenticated: true });
  });
});
