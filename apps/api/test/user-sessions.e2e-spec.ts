import { createHash } from 'node:crypto';
import type { Response } from 'supertest';
import { accountWithCredentials, bearer, login } from './support/accounts';
import { expectError, expectSuccess } from './support/envelope';
import { startTestService, type TestService } from './support/harness';

/**
 * GET /user/session, DELETE /user/session/{id}, DELETE /user/session (docs/api.md §3): the
 * account's sessions, "where you are signed in". Two instances share one database (and Redis in
 * the PostgreSQL pass): a session ended on one stops working at once on the other. The second
 * instance trusts the loopback proxy, the first trusts none, so that the kept client address is
 * seen to follow TRUST_PROXY.
 */

type Caller = Awaited<ReturnType<typeof accountWithCredentials>>;
interface Listed {
  id: string;
  current: boolean;
  created_unix: number;
  last_seen_unix: number;
  expires_unix: number;
  user_agent: string | null;
  ip: string | null;
}

const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';
const SAFARI = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const nowUnix = () => Math.floor(Date.now() / 1000);

describe('/user/session', () => {
  let svc: TestService;
  let proxied: TestService;
  let alice: Caller;
  let bob: Caller;

  const signIn = async (instance: TestService, who: Caller, headers: Record<string, string> = {}) => {
    const res = await instance.http().post('/auth/login').set(headers).send({ username: who.account.username, password: who.account.password }).expect(200);
    const cookie = (res.headers['set-cookie'] as unknown as string[]).find((c) => c.startsWith(`${svc.config.session.cookieName}=`));
    return cookie!.split(';')[0]!;
  };
  const list = async (credential: [string, string], instance = svc) =>
    expectSuccess<Listed[]>(
      await instance
        .http()
        .get('/user/session')
        .set(...credential),
    );
  const idOf = async (cookie: string) => (await list(['Cookie', cookie])).find((s) => s.current)!.id;
  const works = async (cookie: string, instance = svc) => (await instance.http().get('/user').set('Cookie', cookie)).status;
  const clearedCookie = (res: Response) =>
    ((res.headers['set-cookie'] as unknown as string[] | undefined) ?? []).some(
      (c) => c.startsWith(`${svc.config.session.cookieName}=;`) && /Expires=Thu, 01 Jan 1970/.test(c),
    );

  beforeAll(async () => {
    svc = await startTestService({ env: { AUTH_RATE_LIMIT_PER_MINUTE: '1000' } });
    proxied = await startTestService({ sameDatabaseAs: svc, env: { AUTH_RATE_LIMIT_PER_MINUTE: '1000', TRUST_PROXY: 'loopback', WORKER_IN_PROCESS: 'false' } });
    [alice, bob] = await Promise.all([accountWithCredentials(svc, 'us_alice'), accountWithCredentials(svc, 'us_bob')]);
  });
  afterAll(async () => {
    await proxied?.close();
    await svc?.close();
  });

  describe('GET /user/session', () => {
    it('lists the live sessions: the caller’s first and marked, with times, user agent and address at sign-in', async () => {
      const before = nowUnix();
      const firefox = await signIn(svc, alice, { 'User-Agent': FIREFOX });
      const safari = await signIn(svc, alice, { 'User-Agent': SAFARI });
      const listed = await list(['Cookie', firefox]);
      expect(listed.length).toBe(3);
      expect(listed.map((s) => s.current)).toEqual([true, false, false]);
      expect(listed[0]).toEqual({
        id: expect.stringMatching(/^[0-9a-f]{24}$/),
        current: true,
        created_unix: expect.any(Number),
        last_seen_unix: expect.any(Number),
        expires_unix: expect.any(Number),
        user_agent: FIREFOX,
        ip: '127.0.0.1',
      });
      const own = listed[0]!;
      expect(own.created_unix).toBeGreaterThanOrEqual(before - 1);
      expect(own.last_seen_unix).toBeGreaterThanOrEqual(own.created_unix);
      expect(Math.abs(own.expires_unix - (nowUnix() + svc.config.session.ttlSeconds))).toBeLessThanOrEqual(120);
      expect(listed.map((s) => s.user_agent)).toContain(SAFARI);
      // Every listed session is one of alice's: bob's are not there.
      expect(new Set(listed.map((s) => s.id)).size).toBe(3);
      const bobs = await list(['Cookie', bob.cookie]);
      expect(bobs.map((s) => s.id).filter((id) => listed.some((s) => s.id === id))).toEqual([]);
      // The safari session sees itself as current, under the same id.
      const fromSafari = await list(['Cookie', safari]);
      expect(fromSafari[0]).toMatchObject({ current: true, user_agent: SAFARI, id: listed.find((s) => s.user_agent === SAFARI)!.id });
    });

    it('gives ids that are stable and carry nothing of the cookie or of its stored digest', async () => {
      const cookie = await signIn(svc, alice);
      const value = cookie.slice(cookie.indexOf('=') + 1);
      const [sid] = value.split('.');
      const first = await list(['Cookie', cookie]);
      const again = await list(['Cookie', cookie]);
      expect(again.map((s) => s.id).sort()).toEqual(first.map((s) => s.id).sort());
      const text = JSON.stringify(first);
      const digest = createHash('sha256').update(sid!).digest('hex');
      for (const secret of [value, ...value.split('.'), digest, digest.slice(0, 24), Buffer.from(digest, 'hex').toString('base64url').slice(0, 16)])
        expect(text).not.toContain(secret);
    });

    it('with a master token: every session, none current', async () => {
      const byToken = await list(bearer(alice.masterToken));
      const bySession = await list(['Cookie', alice.cookie]);
      expect(byToken.every((s) => !s.current)).toBe(true);
      expect(byToken.map((s) => s.id).sort()).toEqual(bySession.map((s) => s.id).sort());
    });

    it('keeps the address the trusted-proxy rules give, and a long user agent cut to 512 characters', async () => {
      const forwarded = { 'X-Forwarded-For': '203.0.113.9', 'User-Agent': `probe-${'x'.repeat(2000)}` };
      const direct = await signIn(svc, alice, forwarded);
      const viaProxy = await signIn(proxied, alice, forwarded);
      // The first instance trusts no proxy: the header is ignored; the second trusts loopback.
      expect((await list(['Cookie', direct]))[0]).toMatchObject({ ip: '127.0.0.1', user_agent: `probe-${'x'.repeat(506)}` });
      expect((await list(['Cookie', viaProxy], proxied))[0]).toMatchObject({ ip: '203.0.113.9' });
      const none = await svc.http().post('/auth/login').set('User-Agent', '').send({ username: alice.account.username, password: alice.account.password });
      const cookie = (none.headers['set-cookie'] as unknown as string[])[0]!.split(';')[0]!;
      expect((await list(['Cookie', cookie]))[0]!.user_agent).toBeNull();
    });
  });

  describe('DELETE /user/session/{id}', () => {
    it('ends another session of the account: at once on every instance; the caller stays signed in', async () => {
      const mine = await signIn(svc, alice);
      const theirs = await signIn(proxied, alice);
      const id = await idOf(theirs);
      expect([await works(theirs), await works(theirs, proxied)]).toEqual([200, 200]);
      const res = await svc.http().delete(`/user/session/${id}`).set('Cookie', mine);
      expect(expectSuccess(res)).toEqual({ id, ended: true, current: false });
      expect(clearedCookie(res)).toBe(false);
      expectError(await proxied.http().get('/user').set('Cookie', theirs), 401, 'AUTH_REQUIRED');
      expect(await works(theirs)).toBe(401);
      expect(await works(mine)).toBe(200);
      expect((await list(['Cookie', mine])).map((s) => s.id)).not.toContain(id);
      // Ended: the same id again is 404.
      expectError(await svc.http().delete(`/user/session/${id}`).set('Cookie', mine), 404, 'NOT_FOUND', 'id');
    });

    it('ends the caller’s own session: a sign-out, the cookie cleared', async () => {
      const cookie = await signIn(svc, alice);
      const id = await idOf(cookie);
      const res = await svc.http().delete(`/user/session/${id}`).set('Cookie', cookie);
      expect(expectSuccess(res)).toEqual({ id, ended: true, current: true });
      expect(clearedCookie(res)).toBe(true);
      expectError(await svc.http().get('/user').set('Cookie', cookie), 401, 'AUTH_REQUIRED');
      expect((await svc.http().get('/user/state').set('Cookie', cookie)).body.data).toEqual({ authenticated: false });
    });

    it('ends a session with a master token', async () => {
      const cookie = await signIn(svc, alice);
      const id = await idOf(cookie);
      expect(
        expectSuccess(
          await svc
            .http()
            .delete(`/user/session/${id}`)
            .set(...bearer(alice.masterToken)),
        ),
      ).toEqual({ id, ended: true, current: false });
      expect(await works(cookie)).toBe(401);
    });

    it('answers another account’s session id with 404, and that session goes on', async () => {
      const bobs = await signIn(svc, bob);
      const id = await idOf(bobs);
      for (const credential of [['Cookie', alice.cookie], bearer(alice.masterToken)] as [string, string][])
        expectError(
          await svc
            .http()
            .delete(`/user/session/${id}`)
            .set(...credential),
          404,
          'NOT_FOUND',
          'id',
        );
      expect(await works(bobs)).toBe(200);
      expect((await list(['Cookie', bob.cookie])).map((s) => s.id)).toContain(id);
    });

    it.each(['1', 'xyz', 'AB'.repeat(12), 'ab'.repeat(12) + 'a', 'ab'.repeat(11) + 'a', `${'ab'.repeat(11)}g0`, '%20'])(
      'refuses the id %p: 400 naming id, nothing ended',
      async (bad) => {
        const before = (await list(['Cookie', alice.cookie])).map((s) => s.id).sort();
        expectError(await svc.http().delete(`/user/session/${bad}`).set('Cookie', alice.cookie), 400, 'VALIDATION_FAILED', 'id');
        expect((await list(['Cookie', alice.cookie])).map((s) => s.id).sort()).toEqual(before);
      },
    );

    it('answers an unknown id of the right form with 404', async () => {
      expectError(
        await svc
          .http()
          .delete(`/user/session/${'0'.repeat(24)}`)
          .set('Cookie', alice.cookie),
        404,
        'NOT_FOUND',
        'id',
      );
    });
  });

  describe('DELETE /user/session', () => {
    it('ends every other session of the account on every instance; the caller’s and other accounts’ go on', async () => {
      const carol = await accountWithCredentials(svc, 'us_carol');
      const others = [await signIn(svc, carol), await signIn(proxied, carol), await signIn(proxied, carol)];
      const bobs = await signIn(svc, bob);
      const res = await svc.http().delete('/user/session').set('Cookie', carol.cookie);
      expect(expectSuccess(res)).toEqual({ ended: 3 });
      expect(clearedCookie(res)).toBe(false);
      for (const cookie of others) expect([await works(cookie), await works(cookie, proxied)]).toEqual([401, 401]);
      expect(await works(carol.cookie)).toBe(200);
      expect(await works(bobs)).toBe(200);
      expect((await list(['Cookie', carol.cookie])).map((s) => s.current)).toEqual([true]);
      // Nothing left to end.
      expect(expectSuccess(await svc.http().delete('/user/session').set('Cookie', carol.cookie))).toEqual({ ended: 0 });
    });

    it('with a master token: every session of the account ends; its tokens stay', async () => {
      const dave = await accountWithCredentials(svc, 'us_dave');
      const second = await signIn(svc, dave);
      expect(
        expectSuccess(
          await svc
            .http()
            .delete('/user/session')
            .set(...bearer(dave.masterToken)),
        ),
      ).toEqual({ ended: 2 });
      expect([await works(dave.cookie), await works(second)]).toEqual([401, 401]);
      expect(await list(bearer(dave.masterToken))).toEqual([]);
      expectSuccess(
        await svc
          .http()
          .get('/user')
          .set(...bearer(dave.appToken)),
      );
    });
  });

  describe('credentials', () => {
    const routes = [
      ['get', '/user/session'],
      ['delete', '/user/session'],
      ['delete', `/user/session/${'ab'.repeat(12)}`],
    ] as const;

    it.each(routes)('%s %s without credentials: 401 AUTH_REQUIRED', async (method, path) => {
      expectError(await svc.http()[method](path), 401, 'AUTH_REQUIRED');
      expectError(await svc.http()[method](path).set('Cookie', `${svc.config.session.cookieName}=forged.cookie`), 401, 'AUTH_REQUIRED');
    });

    it.each(routes)('%s %s with an app token: 403 FORBIDDEN, nothing ended', async (method, path) => {
      const second = await login(svc, alice.account);
      const before = (await list(['Cookie', alice.cookie])).length;
      expectError(
        await svc
          .http()
          [method](path)
          .set(...bearer(alice.appToken)),
        403,
        'FORBIDDEN',
      );
      expect((await list(['Cookie', alice.cookie])).length).toBe(before);
      expect(await works(second)).toBe(200);
    });
  });
});
