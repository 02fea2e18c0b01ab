import { getDataSourceToken } from '@nestjs/typeorm';
import { ROUTES } from '@dts/client';
import type { DataSource } from 'typeorm';
import { accountWithCredentials, bearer } from './support/accounts';
import { expectApiError, expectError, expectSuccess } from './support/envelope';
import { startTestService, type TestService } from './support/harness';

// Successful flows go through the typed client (libs/client); raw HTTP where a test sends what its
// types would not (bad bodies, odd header forms, two credentials at once).

describe('/user/token', () => {
  let svc: TestService;
  let alice: Awaited<ReturnType<typeof accountWithCredentials>>;
  let bob: Awaited<ReturnType<typeof accountWithCredentials>>;

  beforeAll(async () => {
    svc = await startTestService();
    alice = await accountWithCredentials(svc, 'alice');
    bob = await accountWithCredentials(svc, 'bob');
  });
  afterAll(() => svc?.close());

  describe('GET', () => {
    it('lists the active tokens with every member docs/api.md lists', async () => {
      const data = await alice.sessionClient.tokens.list();
      expect(data.map((t) => t.uid)).toEqual(expect.arrayContaining([alice.appTokenUid, alice.masterTokenUid]));
      const app = data.find((t) => t.uid === alice.appTokenUid)!;
      expect(app).toEqual({
        uid: alice.appTokenUid,
        hash: alice.appToken,
        user_ref: alice.account.id,
        created: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
        until: null,
        enabled: 1,
        type: 'app',
        name: null,
        meta: null,
        rights: null,
      });
      expect(app.hash).toMatch(/^[0-9a-f]{64}$/);
      expect(data.find((t) => t.uid === alice.masterTokenUid)?.type).toBe('master');
    });

    it('shows an app token the app tokens only: a master token’s value is not for it', async () => {
      const data = await alice.client.tokens.list();
      expect(data.map((t) => t.uid)).toContain(alice.appTokenUid);
      expect(data.map((t) => t.uid)).not.toContain(alice.masterTokenUid);
      expect(JSON.stringify(data)).not.toContain(alice.masterToken);
      expect((await alice.masterClient.tokens.list()).map((t) => t.uid)).toContain(alice.masterTokenUid);
    });

    it('never shows another account’s tokens', async () => {
      const data = await bob.client.tokens.list();
      expect(data.map((t) => t.uid)).not.toContain(alice.appTokenUid);
    });

    it('needs credentials', async () => {
      await expectApiError(svc.client().tokens.list(), 401, 'AUTH_REQUIRED');
      await expectApiError(svc.client({ token: 'f'.repeat(64) }).tokens.list(), 401, 'INVALID_TOKEN');
      expectError(await svc.http().get('/user/token').set('token', 'not-a-token'), 401, 'INVALID_TOKEN');
    });
  });

  describe('POST', () => {
    it('creates an app token from API, app and master types, and lists it', async () => {
      for (const [type, stored] of [
        ['API', 'app'],
        ['app', 'app'],
        ['master', 'master'],
      ] as const) {
        const res = await alice.sessionClient.request<number>(ROUTES.tokensCreate, { body: { type, name: `t-${type}`, until: '2099-01-01 00:00:00' } });
        const uid = res.data;
        expect(res.status).toBe(201);
        expect(Number.isInteger(uid)).toBe(true);
        expect(res.messages).toHaveLength(1);
        const list = await alice.sessionClient.tokens.list();
        expect(list.find((t) => t.uid === uid)).toMatchObject({ type: stored, name: `t-${type}`, until: '2099-01-01 00:00:00' });
      }
    });

    it('lets a master token create a master token, not an app token', async () => {
      expect(Number.isInteger(await alice.masterClient.tokens.create({ type: 'master' }))).toBe(true);
      await expectApiError(alice.client.tokens.create({ type: 'master' }), 403, 'FORBIDDEN', 'type');
      expect(Number.isInteger(await alice.client.tokens.create({ type: 'API' }))).toBe(true);
    });

    it.each([
      [{}, 'type'],
      [{ type: 'root' }, 'type'],
      [{ type: 'API', name: 'x'.repeat(101) }, 'name'],
      [{ type: 'API', name: 5 }, 'name'],
      [{ type: 'API', until: '2001-01-01 00:00:00' }, 'until'],
      [{ type: 'API', until: '2099-13-01 00:00:00' }, 'until'],
      [{ type: 'API', until: 'tomorrow' }, 'until'],
      [{ type: 'API', owner: 1 }, 'owner'],
      [{ type: 'API', constructor: { prototype: {} } }, 'constructor'],
    ])('refuses %j naming %s, storing nothing', async (body, field) => {
      const before = (await bob.sessionClient.tokens.list()).length;
      expectError(await svc.http().post('/user/token').set('Cookie', bob.cookie).send(body), 400, 'VALIDATION_FAILED', field);
      expect(await bob.sessionClient.tokens.list()).toHaveLength(before);
    });

    it('names each bad member in its own entry', async () => {
      const errors = expectError(
        await svc.http().post('/user/token').set('Cookie', bob.cookie).send({ type: 'x', name: 1, extra: true }),
        400,
        'VALIDATION_FAILED',
      );
      expect(errors.map((e) => e.field).sort()).toEqual(['extra', 'name', 'type']);
    });

    it('needs credentials', async () => {
      await expectApiError(svc.client().tokens.create({ type: 'API' }), 401, 'AUTH_REQUIRED');
    });

    it('stops at 100 tokens per account', async () => {
      const carol = await accountWithCredentials(svc, 'carol'); // holds 2 already
      for (let i = 0; i < 98; i++) await carol.sessionClient.tokens.create({ type: 'API' });
      await expectApiError(carol.sessionClient.tokens.create({ type: 'API' }), 409, 'TOKEN_LIMIT_REACHED');
    });
  });

  describe('DELETE', () => {
    it('deletes by integer or digit string, and the token stops working at once', async () => {
      const one = await alice.sessionClient.tokens.createAndGet({ type: 'API' });
      const two = await alice.sessionClient.tokens.createAndGet({ type: 'API' });
      const res = await alice.sessionClient.request<number>(ROUTES.tokensDelete, { body: { uid: one.uid } });
      expect({ status: res.status, data: res.data }).toEqual({ status: 200, data: one.uid });
      expect(res.messages).toHaveLength(1);
      expect(await alice.sessionClient.tokens.delete(String(two.uid))).toBe(two.uid);
      await expectApiError(svc.client({ token: one.hash }).user.me(), 401, 'INVALID_TOKEN');
      await expectApiError(alice.sessionClient.tokens.delete(one.uid), 404, 'NOT_FOUND');
    });

    it('lets an app token delete app tokens, not a master token (403, the token left working)', async () => {
      const app = await alice.sessionClient.tokens.createAndGet({ type: 'API' });
      const master = await alice.sessionClient.tokens.createAndGet({ type: 'master' });
      await expectApiError(alice.client.tokens.delete(master.uid), 403, 'FORBIDDEN', 'uid');
      expect((await svc.client({ token: master.hash }).user.me()).id).toBe(alice.account.id);
      expect(await alice.client.tokens.delete(app.uid)).toBe(app.uid);
      expect(await alice.masterClient.tokens.delete(master.uid)).toBe(master.uid);
    });

    it('answers 404 for another account’s token and leaves it alone', async () => {
      await expectApiError(alice.client.tokens.delete(bob.appTokenUid), 404, 'NOT_FOUND', 'uid');
      expect((await bob.client.user.me()).id).toBe(bob.account.id);
    });

    it.each([[{}], [{ uid: 'abc' }], [{ uid: -1 }], [{ uid: 1.5 }], [{ uid: '1e3' }], [{ uid: 1, more: 1 }]])('refuses %j', async (body) => {
      expectError(await svc.http().delete('/user/token').set('Cookie', alice.cookie).send(body), 400, 'VALIDATION_FAILED');
    });

    it('needs credentials', async () => {
      await expectApiError(svc.client().tokens.delete(1), 401, 'AUTH_REQUIRED');
    });
  });

  describe('using a token', () => {
    it('works in each accepted header form', async () => {
      for (const header of [
        ['Authorization', `Bearer ${alice.appToken}`],
        ['Authorization', `bearer ${alice.appToken}`],
        ['Authorization', alice.appToken],
        ['token', alice.appToken],
      ] as const) {
        expect(expectSuccess<{ id: number }>(await svc.http().get('/user').set(header[0], header[1])).id).toBe(alice.account.id);
      }
    });

    it('refuses two different tokens, accepts the same one twice, and prefers a token over a cookie', async () => {
      expectError(
        await svc
          .http()
          .get('/user')
          .set('token', alice.appToken)
          .set(...bearer(bob.appToken)),
        400,
        'CONFLICTING_CREDENTIALS',
      );
      expectSuccess(
        await svc
          .http()
          .get('/user')
          .set('token', alice.appToken)
          .set(...bearer(alice.appToken)),
      );
      expect((await svc.client({ cookie: alice.cookie, token: bob.appToken }).user.me()).id).toBe(bob.account.id);
    });

    it('refuses an expired token with TOKEN_EXPIRED', async () => {
      const t = await alice.sessionClient.tokens.createAndGet({ type: 'API', until: '2099-01-01 00:00:00' });
      await svc.app.get<DataSource>(getDataSourceToken()).query(`UPDATE api_tokens SET until = now() - interval '1 second' WHERE uid = $1`, [t.uid]);
      await expectApiError(svc.client({ token: t.hash }).user.me(), 401, 'TOKEN_EXPIRED');
      expect((await alice.sessionClient.tokens.list()).map((x) => x.uid)).not.toContain(t.uid);
    });

    it('keeps only a digest and ciphertext at rest', async () => {
      const rows: { digest: Buffer; value_encrypted: Buffer }[] = await svc.app
        .get<DataSource>(getDataSourceToken())
        .query('SELECT digest, value_encrypted FROM api_tokens WHERE uid = $1', [alice.appTokenUid]);
      expect(rows[0]!.digest.toString('hex')).not.toBe(alice.appToken);
      expect(rows[0]!.value_encrypted.toString('latin1')).not.toContain(alice.appToken);
      expect(rows[0]!.value_encrypted.toString('hex')).not.toContain(alice.appToken);
    });
  });
});
