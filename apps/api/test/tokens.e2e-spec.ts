import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { accountWithCredentials, bearer, createToken } from './support/accounts';
import { expectError, expectSuccess } from './support/envelope';
import { startTestService, type TestService } from './support/harness';

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
    it('lists the active tokens with every member of the spec', async () => {
      const data = expectSuccess<Record<string, unknown>[]>(await svc.http().get('/user/token').set(...bearer(alice.appToken)));
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
      });
      expect(app.hash).toMatch(/^[0-9a-f]{64}$/);
      expect(data.find((t) => t.uid === alice.masterTokenUid)?.type).toBe('master');
    });

    it('never shows another account’s tokens', async () => {
      const data = expectSuccess<{ uid: number }[]>(await svc.http().get('/user/token').set(...bearer(bob.appToken)));
      expect(data.map((t) => t.uid)).not.toContain(alice.appTokenUid);
    });

    it('needs credentials', async () => {
      expectError(await svc.http().get('/user/token'), 401, 'AUTH_REQUIRED');
      expectError(await svc.http().get('/user/token').set('Authorization', 'Bearer ' + 'f'.repeat(64)), 401, 'INVALID_TOKEN');
      expectError(await svc.http().get('/user/token').set('token', 'not-a-token'), 401, 'INVALID_TOKEN');
    });
  });

  describe('POST', () => {
    it('creates an app token from API, app and master types, and lists it', async () => {
      for (const [type, stored] of [['API', 'app'], ['app', 'app'], ['master', 'master']] as const) {
        const res = await svc.http().post('/user/token').set('Cookie', alice.cookie).send({ type, name: `t-${type}`, until: '2099-01-01 00:00:00' });
        const uid = expectSuccess<number>(res, 201);
        expect(Number.isInteger(uid)).toBe(true);
        expect(res.body.messages).toHaveLength(1);
        const list = expectSuccess<{ uid: number; type: string; name: string; until: string }[]>(await svc.http().get('/user/token').set('Cookie', alice.cookie));
        expect(list.find((t) => t.uid === uid)).toMatchObject({ type: stored, name: `t-${type}`, until: '2099-01-01 00:00:00' });
      }
    });

    it('lets a master token create a master token, not an app token', async () => {
      expectSuccess(await svc.http().post('/user/token').set(...bearer(alice.masterToken)).send({ type: 'master' }), 201);
      expectError(await svc.http().post('/user/token').set(...bearer(alice.appToken)).send({ type: 'master' }), 403, 'FORBIDDEN', 'type');
      expectSuccess(await svc.http().post('/user/token').set(...bearer(alice.appToken)).send({ type: 'API' }), 201);
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
      const before = expectSuccess<unknown[]>(await svc.http().get('/user/token').set('Cookie', bob.cookie)).length;
      expectError(await svc.http().post('/user/token').set('Cookie', bob.cookie).send(body), 400, 'VALIDATION_FAILED', field);
      expect(expectSuccess<unknown[]>(await svc.http().get('/user/token').set('Cookie', bob.cookie))).toHaveLength(before);
    });

    it('names each bad member in its own entry', async () => {
      const errors = expectError(await svc.http().post('/user/token').set('Cookie', bob.cookie).send({ type: 'x', name: 1, extra: true }), 400, 'VALIDATION_FAILED');
      expect(errors.map((e) => e.field).sort()).toEqual(['extra', 'name', 'type']);
    });

    it('needs credentials', async () => {
      expectError(await svc.http().post('/user/token').send({ type: 'API' }), 401, 'AUTH_REQUIRED');
    });

    it('stops at 100 tokens per account', async () => {
      const carol = await accountWithCredentials(svc, 'carol'); // holds 2 already
      for (let i = 0; i < 98; i++) await svc.http().post('/user/token').set('Cookie', carol.cookie).send({ type: 'API' }).expect(201);
      expectError(await svc.http().post('/user/token').set('Cookie', carol.cookie).send({ type: 'API' }), 409, 'TOKEN_LIMIT_REACHED');
    });
  });

  describe('DELETE', () => {
    it('deletes by integer or digit string, and the token stops working at once', async () => {
      const one = await createToken(svc, alice.cookie);
      const two = await createToken(svc, alice.cookie);
      const res = await svc.http().delete('/user/token').set('Cookie', alice.cookie).send({ uid: one.uid });
      expect(expectSuccess<number>(res)).toBe(one.uid);
      expect(res.body.messages).toHaveLength(1);
      expect(expectSuccess<number>(await svc.http().delete('/user/token').set('Cookie', alice.cookie).send({ uid: String(two.uid) }))).toBe(two.uid);
      expectError(await svc.http().get('/user').set(...bearer(one.value)), 401, 'INVALID_TOKEN');
      expectError(await svc.http().delete('/user/token').set('Cookie', alice.cookie).send({ uid: one.uid }), 404, 'NOT_FOUND');
    });

    it('answers 404 for another account’s token and leaves it alone', async () => {
      expectError(await svc.http().delete('/user/token').set(...bearer(alice.appToken)).send({ uid: bob.appTokenUid }), 404, 'NOT_FOUND', 'uid');
      expectSuccess(await svc.http().get('/user').set(...bearer(bob.appToken)));
    });

    it.each([[{}], [{ uid: 'abc' }], [{ uid: -1 }], [{ uid: 1.5 }], [{ uid: '1e3' }], [{ uid: 1, more: 1 }]])('refuses %j', async (body) => {
      expectError(await svc.http().delete('/user/token').set('Cookie', alice.cookie).send(body), 400, 'VALIDATION_FAILED');
    });

    it('needs credentials', async () => {
      expectError(await svc.http().delete('/user/token').send({ uid: 1 }), 401, 'AUTH_REQUIRED');
    });
  });

  describe('using a token', () => {
    it('works in each accepted header form', async () => {
      for (const header of [['Authorization', `Bearer ${alice.appToken}`], ['Authorization', `bearer ${alice.appToken}`], ['Authorization', alice.appToken], ['token', alice.appToken]] as const) {
        expect(expectSuccess<{ id: number }>(await svc.http().get('/user').set(header[0], header[1])).id).toBe(alice.account.id);
      }
    });

    it('refuses two different tokens, accepts the same one twice, and prefers a token over a cookie', async () => {
      expectError(await svc.http().get('/user').set('token', alice.appToken).set(...bearer(bob.appToken)), 400, 'CONFLICTING_CREDENTIALS');
      expectSuccess(await svc.http().get('/user').set('token', alice.appToken).set(...bearer(alice.appToken)));
      expect(expectSuccess<{ id: number }>(await svc.http().get('/user').set('Cookie', alice.cookie).set(...bearer(bob.appToken))).id).toBe(bob.account.id);
    });

    it('refuses an expired token with TOKEN_EXPIRED', async () => {
      const t = await createToken(svc, alice.cookie, 'API', { until: '2099-01-01 00:00:00' });
      await svc.app.get<DataSource>(getDataSourceToken()).query(`UPDATE api_tokens SET until = now() - interval '1 second' WHERE uid = $1`, [t.uid]);
      expectError(await svc.http().get('/user').set(...bearer(t.value)), 401, 'TOKEN_EXPIRED');
      const list = expectSuccess<{ uid: number }[]>(await svc.http().get('/user/token').set('Cookie', alice.cookie));
      expect(list.map((x) => x.uid)).not.toContain(t.uid);
    });

    it('keeps only a digest and ciphertext at rest', async () => {
      const rows: { digest: Buffer; value_encrypted: Buffer }[] = await svc.app.get<DataSource>(getDataSourceToken()).query('SELECT digest, value_encrypted FROM api_tokens WHERE uid = $1', [alice.appTokenUid]);
      expect(rows[0].digest.toString('hex')).not.toBe(alice.appToken);
      expect(rows[0].value_encrypted.toString('latin1')).not.toContain(alice.appToken);
      expect(rows[0].value_encrypted.toString('hex')).not.toContain(alice.appToken);
    });
  });
});
