import type { Response } from 'supertest';
import { accountWithCredentials, bearer, login } from './support/accounts';
import { expectError, expectSuccess } from './support/envelope';
import { startTestService, type TestService } from './support/harness';

/** GET /user and GET /user/state (docs/api.md §15, §2, §3). */

function expectEnvelope(res: Response, status: number, data: unknown) {
  expect({ status: res.status, body: res.body }).toEqual({ status, body: { errors: [], debug: [], meta: [], messages: [], data, success: true } });
}

const SQL_TIMESTAMP = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
/** A `YYYY-MM-DD HH:MM:SS` UTC string as epoch milliseconds. */
const utc = (s: string) => Date.parse(`${s.replace(' ', 'T')}Z`);

describe('/user', () => {
  let svc: TestService;
  let alice: Awaited<ReturnType<typeof accountWithCredentials>>;
  let bob: Awaited<ReturnType<typeof accountWithCredentials>>;
  let startedAt: number;

  beforeAll(async () => {
    svc = await startTestService();
    startedAt = Date.now();
    alice = await accountWithCredentials(svc, 'alice');
    bob = await accountWithCredentials(svc, 'bob');
  });
  afterAll(() => svc?.close());

  describe('GET /user', () => {
    it('returns the caller’s account with every member docs/api.md lists, the password masked', async () => {
      const res = await svc.http().get('/user').set('Cookie', alice.cookie);
      // fullname: checked on its own below (string or null, present either way).
      const fullname = (res.body.data as { fullname?: unknown } | null)?.fullname;
      expect(fullname === null || typeof fullname === 'string').toBe(true);
      expectEnvelope(res, 200, {
        id: alice.account.id,
        username: alice.account.username,
        fullname,
        email: alice.account.email,
        email_verified: false,
        email_pending: null,
        password: '********',
        consent: 0,
        active: 1,
        groupid: 2,
        created: expect.stringMatching(SQL_TIMESTAMP),
        last_login: expect.stringMatching(SQL_TIMESTAMP),
        subscription: 'free',
        expiration: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
        max_devices: 50,
        login_count: 1,
        // Neither the account nor the platform (no UPLINK_RETENTION_DAYS here) limits it: kept forever.
        uplink_retention_effective_days: null,
      });
      const data = res.body.data as { created: string; last_login: string; expiration: string };
      // UTC timestamps of this run.
      for (const at of [utc(data.created), utc(data.last_login)]) {
        expect(at).toBeGreaterThanOrEqual(Math.floor(startedAt / 1000) * 1000 - 1000);
        expect(at).toBeLessThanOrEqual(Date.now() + 1000);
      }
      const days = (Date.parse(`${data.expiration}T00:00:00Z`) - Date.now()) / 86_400_000;
      expect(days).toBeGreaterThan(363);
      expect(days).toBeLessThan(366);
      // The hash never leaves the server.
      expect(JSON.stringify(res.body)).not.toMatch(/argon2|\$v=\d+\$/);
      expect(JSON.stringify(res.body)).not.toContain(alice.account.password);
    });

    it('answers the same with a session, an app token and a master token', async () => {
      const viaCookie = expectSuccess(await svc.http().get('/user').set('Cookie', alice.cookie));
      expect(
        expectSuccess(
          await svc
            .http()
            .get('/user')
            .set(...bearer(alice.appToken)),
        ),
      ).toEqual(viaCookie);
      expect(
        expectSuccess(
          await svc
            .http()
            .get('/user')
            .set(...bearer(alice.masterToken)),
        ),
      ).toEqual(viaCookie);
      expect(expectSuccess(await svc.http().get('/user').set('token', alice.appToken))).toEqual(viaCookie);
    });

    it('shows the fullname given at registration', async () => {
      const named = { username: `named_${Date.now()}`, email: `named_${Date.now()}@example.org`, password: 'a long password', fullname: 'Named Person' };
      const id = expectSuccess<{ id: number }>(await svc.http().post('/auth/register').send(named), 201).id;
      expect(
        expectSuccess<{ fullname: unknown }>(
          await svc
            .http()
            .get('/user')
            .set('Cookie', await login(svc, { id, ...named })),
        ).fullname,
      ).toBe('Named Person');
    });

    it('shows fullname as null, never "", when none was given at registration (docs/api.md §2)', async () => {
      // alice registered without one: members that may be empty are null, never missing, never "".
      expect(
        expectSuccess<{ fullname: unknown }>(
          await svc
            .http()
            .get('/user')
            .set(...bearer(alice.appToken)),
        ).fullname,
      ).toBeNull();
    });

    it('counts logins', async () => {
      const carol = await accountWithCredentials(svc, 'carol');
      expect(expectSuccess<{ login_count: number }>(await svc.http().get('/user').set('Cookie', carol.cookie)).login_count).toBe(1);
      const second = await login(svc, carol.account);
      const after = expectSuccess<{ login_count: number; last_login: string }>(await svc.http().get('/user').set('Cookie', second));
      expect(after.login_count).toBe(2);
      expect(after.last_login).toMatch(SQL_TIMESTAMP);
    });

    it('returns another account’s own data for its credentials, never the first account’s', async () => {
      for (const res of [
        await svc
          .http()
          .get('/user')
          .set(...bearer(bob.appToken)),
        await svc.http().get('/user').set('Cookie', bob.cookie),
      ]) {
        const data = expectSuccess<{ id: number; username: string; email: string }>(res);
        expect(data).toMatchObject({ id: bob.account.id, username: bob.account.username, email: bob.account.email });
        const text = JSON.stringify(res.body);
        expect(text).not.toContain(alice.account.username);
        expect(text).not.toContain(alice.account.email);
      }
      expect(
        expectSuccess<{ id: number }>(
          await svc
            .http()
            .get('/user')
            .set(...bearer(alice.appToken)),
        ).id,
      ).toBe(alice.account.id);
    });

    it('needs credentials: 401 AUTH_REQUIRED', async () => {
      expectError(await svc.http().get('/user'), 401, 'AUTH_REQUIRED');
    });

    it('refuses bad credentials', async () => {
      expectError(
        await svc
          .http()
          .get('/user')
          .set(...bearer('0'.repeat(64))),
        401,
        'INVALID_TOKEN',
      );
      expectError(
        await svc
          .http()
          .get('/user')
          .set(...bearer('not-a-token')),
        401,
        'INVALID_TOKEN',
      );
      expectError(
        await svc
          .http()
          .get('/user')
          .set(...bearer(alice.appToken.toUpperCase())),
        401,
        'INVALID_TOKEN',
      );
      expectError(await svc.http().get('/user').set('Cookie', `${svc.config.session.cookieName}=forged.cookie`), 401, 'AUTH_REQUIRED');
      // A real cookie's id with a signature of another: refused.
      const [id] = alice.cookie.split('=')[1]!.split('.');
      const [, otherSignature] = bob.cookie.split('=')[1]!.split('.');
      expectError(await svc.http().get('/user').set('Cookie', `${svc.config.session.cookieName}=${id}.${otherSignature}`), 401, 'AUTH_REQUIRED');
    });

    it('refuses the cookie of a session that ended', async () => {
      const dave = await accountWithCredentials(svc, 'dave');
      await svc.http().post('/auth/logout').set('Cookie', dave.cookie).expect(200);
      expectError(await svc.http().get('/user').set('Cookie', dave.cookie), 401, 'AUTH_REQUIRED');
      expectSuccess(
        await svc
          .http()
          .get('/user')
          .set(...bearer(dave.appToken)),
      );
    });
  });

  describe('GET /user/state', () => {
    const state = () => svc.http().get('/user/state');

    it('answers {authenticated: false} without credentials', async () => {
      expectEnvelope(await state(), 200, { authenticated: false });
    });

    it('never fails for bad credentials: {authenticated: false}', async () => {
      expectEnvelope(await state().set(...bearer('0'.repeat(64))), 200, { authenticated: false });
      expectEnvelope(await state().set(...bearer('not-a-token')), 200, { authenticated: false });
      expectEnvelope(await state().set('token', 'f'.repeat(64)), 200, { authenticated: false });
      expectEnvelope(await state().set('Cookie', `${svc.config.session.cookieName}=forged.cookie`), 200, { authenticated: false });
      const ended = await accountWithCredentials(svc, 'erin');
      await svc.http().post('/auth/logout').set('Cookie', ended.cookie).expect(200);
      expectEnvelope(await state().set('Cookie', ended.cookie), 200, { authenticated: false });
    });

    it('answers {authenticated: true} with a session, an app token or a master token', async () => {
      expectEnvelope(await state().set('Cookie', alice.cookie), 200, { authenticated: true });
      expectEnvelope(await state().set(...bearer(alice.appToken)), 200, { authenticated: true });
      expectEnvelope(await state().set('token', alice.masterToken), 200, { authenticated: true });
      expectEnvelope(await state().set('Authorization', bob.appToken), 200, { authenticated: true });
    });
  });
});
