import { accountWithCredentials, bearer, login, registerAccount } from './support/accounts';
import { expectError, expectSuccess } from './support/envelope';
import { startTestService, type TestService } from './support/harness';

/**
 * Two api instances on one database (and one Redis when configured), as behind the load balancer:
 * whatever one instance establishes, the other must see at once.
 */
describe('two api instances sharing their stores', () => {
  let a: TestService;
  let b: TestService;

  beforeAll(async () => {
    a = await startTestService({ env: { AUTH_RATE_LIMIT_PER_MINUTE: '4' } });
    b = await startTestService({ sameDatabaseAs: a, env: { AUTH_RATE_LIMIT_PER_MINUTE: '4' } });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('accepts on one instance a session started on the other, and logout on one ends it on both', async () => {
    const account = await registerAccount(a, 'lb');
    const cookie = await login(a, account);
    expect(expectSuccess<{ id: number }>(await b.http().get('/user').set('Cookie', cookie)).id).toBe(account.id);
    await b.http().post('/auth/logout').set('Cookie', cookie).expect(200);
    expectError(await a.http().get('/user').set('Cookie', cookie), 401, 'AUTH_REQUIRED');
  });

  it('sees a token deleted on one instance as invalid on the other at once', async () => {
    const alice = await accountWithCredentials(a, 'alice');
    expectSuccess(await b.http().get('/user').set(...bearer(alice.appToken)));
    await a.http().delete('/user/token').set('Cookie', alice.cookie).send({ uid: alice.appTokenUid }).expect(200);
    expectError(await b.http().get('/user').set(...bearer(alice.appToken)), 401, 'INVALID_TOKEN');
  });

  it('counts login attempts across instances', async () => {
    const account = await registerAccount(a, 'brute');
    const attempt = (svc: TestService) => svc.http().post('/auth/login').send({ username: account.username, password: 'wrong password!' });
    expectError(await attempt(a), 401, 'INVALID_CREDENTIALS');
    expectError(await attempt(b), 401, 'INVALID_CREDENTIALS');
    expectError(await attempt(a), 401, 'INVALID_CREDENTIALS');
    expectError(await attempt(b), 401, 'INVALID_CREDENTIALS');
    const limited = await attempt(a);
    expectError(limited, 429, 'RATE_LIMITED');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expectError(await attempt(b), 429, 'RATE_LIMITED');
  });
});
