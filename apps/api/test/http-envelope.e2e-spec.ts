import { AccountsRepository } from '@dts/persistence';
import { accountWithCredentials, bearer } from './support/accounts';
import { expectError, expectSuccess } from './support/envelope';
import { startTestService, type TestService } from './support/harness';

describe('the envelope and HTTP behaviour common to every route', () => {
  let svc: TestService;
  let alice: Awaited<ReturnType<typeof accountWithCredentials>>;

  beforeAll(async () => {
    svc = await startTestService();
    alice = await accountWithCredentials(svc, 'alice');
  });
  afterAll(() => svc?.close());
  afterEach(() => jest.restoreAllMocks());

  it('answers unknown routes and unknown methods on known paths with 404 ROUTE_NOT_FOUND', async () => {
    expectError(await svc.http().get('/no/such/route'), 404, 'ROUTE_NOT_FOUND');
    expectError(
      await svc
        .http()
        .put('/user/token')
        .set(...bearer(alice.appToken))
        .send({}),
      404,
      'ROUTE_NOT_FOUND',
    );
    expectError(await svc.http().patch('/version'), 404, 'ROUTE_NOT_FOUND');
  });

  it('answers malformed JSON with 400 MALFORMED_JSON, storing nothing', async () => {
    expectError(await svc.http().post('/auth/register').set('Content-Type', 'application/json').send('{"username": "x",'), 400, 'MALFORMED_JSON');
  });

  it('answers a body over 1 MB with 413 PAYLOAD_TOO_LARGE', async () => {
    const big = JSON.stringify({ message: 'x'.repeat(1_100_000) });
    expectError(
      await svc
        .http()
        .post('/feedback')
        .set(...bearer(alice.appToken))
        .set('Content-Type', 'application/json')
        .send(big),
      413,
      'PAYLOAD_TOO_LARGE',
    );
  });

  it('answers a body that is not JSON with 415 UNSUPPORTED_MEDIA_TYPE', async () => {
    expectError(await svc.http().post('/auth/login').set('Content-Type', 'text/plain').send('username=a'), 415, 'UNSUPPORTED_MEDIA_TYPE', 'Content-Type');
    expectError(await svc.http().post('/auth/login').type('form').send({ username: 'a', password: 'b' }), 415, 'UNSUPPORTED_MEDIA_TYPE');
  });

  it('refuses a JSON body that is not an object', async () => {
    expectError(await svc.http().post('/auth/login').send([1, 2]), 400, 'VALIDATION_FAILED', 'body');
    // Only objects and arrays are JSON bodies here; a bare string is not one.
    expectError(await svc.http().post('/auth/login').set('Content-Type', 'application/json').send('"text"'), 400, 'MALFORMED_JSON');
  });

  it('refuses prototype-polluting members anywhere in a body', async () => {
    const body = '{"username":"a","password":"b","nested":{"__proto__":{"admin":true}}}';
    expectError(await svc.http().post('/auth/check').set('Content-Type', 'application/json').send(body), 400, 'VALIDATION_FAILED', 'nested.__proto__');
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
  });

  it('refuses an object wider than any route takes before a DTO sees it, naming the limit', async () => {
    const wide = Object.fromEntries(Array.from({ length: 60_000 }, (_, i) => [`m${i}`, 1]));
    for (const path of ['/auth/login', '/auth/check', '/auth/restore', '/auth/register']) {
      const res = await svc
        .http()
        .post(path)
        .send({ username: 'a', password: 'b', ...wide });
      const [error] = expectError(res, 400, 'VALIDATION_FAILED', 'body');
      expect(error!.message).toContain('more than 500 members');
    }
    const nested = { username: 'a', password: 'b', extra: Object.fromEntries(Array.from({ length: 501 }, (_, i) => [`m${i}`, 1])) };
    expect(expectError(await svc.http().post('/auth/check').send(nested), 400, 'VALIDATION_FAILED', 'body')[0]!.message).toContain('500');
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    expect(
      expectError(await svc.http().post('/auth/login').set('Content-Type', 'application/json').send(deep), 400, 'VALIDATION_FAILED', 'body')[0]!.message,
    ).toContain('deeper than 64');
    const long = JSON.stringify(Array.from({ length: 20_001 }, () => 0));
    expect(
      expectError(await svc.http().post('/ingest/rest').set('Content-Type', 'application/json').send(long), 400, 'VALIDATION_FAILED', 'body')[0]!.message,
    ).toContain('20000');
  });

  it('echoes a sane X-Request-Id and makes one otherwise', async () => {
    const given = await svc.http().get('/version').set('X-Request-Id', 'lb-1234.abc');
    expect(given.headers['x-request-id']).toBe('lb-1234.abc');
    const made = await svc.http().get('/version').set('X-Request-Id', 'bad id with spaces');
    expect(made.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const error = await svc.http().get('/nowhere');
    expect(error.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const parseError = await svc.http().post('/auth/login').set('Content-Type', 'application/json').send('{');
    expect(parseError.headers['x-request-id']).toBeDefined();
  });

  it('sends helmet’s headers and no X-Powered-By', async () => {
    const res = await svc.http().get('/version');
    expect(res.headers['x-powered-by']).toBeUndefined();
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
  });

  it('turns an unexpected failure into 500 INTERNAL without stack, SQL or secret', async () => {
    jest.spyOn(svc.app.get(AccountsRepository), 'findById').mockRejectedValue(new Error('relation "accounts" SELECT password_hash FROM secret_table'));
    const res = await svc
      .http()
      .get('/user')
      .set(...bearer(alice.appToken));
    expectError(res, 500, 'INTERNAL');
    expect(res.text).not.toMatch(/secret_table|password_hash|SELECT|at .*\.ts/);
  });

  it('turns a database outage into 503 UNAVAILABLE with Retry-After', async () => {
    jest
      .spyOn(svc.app.get(AccountsRepository), 'findById')
      .mockRejectedValue(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }));
    const res = await svc
      .http()
      .get('/user')
      .set(...bearer(alice.appToken));
    expectError(res, 503, 'UNAVAILABLE');
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(res.text).not.toContain('5432');
  });

  it('wraps success in the envelope with every member', async () => {
    const res = await svc.http().get('/version');
    expect(Object.keys(res.body).sort()).toEqual(['data', 'debug', 'errors', 'messages', 'meta', 'success']);
    expectSuccess(res);
  });
});

describe('per-account rate limit', () => {
  let svc: TestService;
  afterAll(() => svc?.close());

  it('answers 429 RATE_LIMITED with Retry-After past the account’s budget, counting every route together', async () => {
    svc = await startTestService({ env: { RATE_LIMIT_PER_MINUTE: '7' } });
    const alice = await accountWithCredentials(svc, 'alice'); // 4 authenticated calls while creating its tokens
    const bob = await accountWithCredentials(svc, 'bob');
    await svc
      .http()
      .get('/user')
      .set(...bearer(alice.appToken))
      .expect(200);
    await svc
      .http()
      .get('/user/token')
      .set(...bearer(alice.appToken))
      .expect(200);
    await svc
      .http()
      .get('/user')
      .set(...bearer(alice.masterToken))
      .expect(200);
    const limited = await svc
      .http()
      .get('/user')
      .set(...bearer(alice.appToken));
    expectError(limited, 429, 'RATE_LIMITED');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // Another account has its own budget; public routes are not counted per account.
    await svc
      .http()
      .get('/user')
      .set(...bearer(bob.appToken))
      .expect(200);
    await svc.http().get('/version').expect(200);
  });
});
