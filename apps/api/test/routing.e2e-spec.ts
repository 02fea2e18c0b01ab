import { randomBytes } from 'node:crypto';
import type { Response } from 'supertest';
import { accountWithCredentials, bearer, tokenClient } from './support/accounts';
import { expectError, expectSuccess } from './support/envelope';
import { startTestService, type TestService } from './support/harness';

/*
 * Every route goes one way (apps/api/src/common/http/api-adapter.ts): the route table picks the
 * route, the global guards decide (the account budget counted directly for a route without limits
 * of its own), the handler's result is put in the envelope where Nest writes it. What Express's
 * router and the former interceptor did, the service still does on every route.
 */

type Caller = Awaited<ReturnType<typeof accountWithCredentials>>;
const newEui = () => randomBytes(8).toString('hex').toUpperCase();

describe('routing: one way for every route', () => {
  let svc: TestService;
  let alice: Caller;
  let bob: Caller;
  let eui: string;
  let uid: number;

  const read = (path: string, ...headers: [string, string][]) => {
    const req = svc.http().get(path);
    for (const header of headers) req.set(...header);
    return req;
  };

  beforeAll(async () => {
    svc = await startTestService();
    [alice, bob] = await Promise.all([accountWithCredentials(svc, 'route'), accountWithCredentials(svc, 'route')]);
    eui = newEui();
    uid = expectSuccess<{ uid: number }>(await tokenClient(svc, alice.appToken).post(`/user/device/${eui}`), 201).uid;
  });
  afterAll(() => svc?.close());

  it('matches paths as Express does: any case, one trailing slash, parameters decoded', async () => {
    const meta = (path: string) => read(path, bearer(alice.appToken));
    for (const path of [`/user/device/meta/${eui}`, `/USER/Device/meta/${eui}`, `/user/device/meta/${eui}/`, `/user/device/meta/${eui.toLowerCase()}`]) {
      const [device] = expectSuccess<{ uid: number }[]>(await meta(path));
      expect(device!.uid).toBe(uid);
    }
    // A parameter is decoded before its pipe sees it: an escaped EUI is the EUI.
    const escaped = eui.replace(/^(.)/, (c) => `%${c.charCodeAt(0).toString(16)}`);
    expect(expectSuccess<{ uid: number }[]>(await meta(`/user/device/meta/${escaped}`))[0]!.uid).toBe(uid);
    // A malformed escape is the client's mistake, in the envelope.
    const malformed = await meta('/user/device/meta/%E0%A4%A');
    expect(malformed.status).toBe(400);
    expect(malformed.body).toMatchObject({ success: false });
    // A path no route has, and a method the path has no route for: 404 in the envelope, under no route's name.
    expectError(await meta('/user/device/meta'), 404, 'ROUTE_NOT_FOUND');
    expectError(
      await svc
        .http()
        .put(`/user/device/meta/${eui}`)
        .set(...bearer(alice.appToken)),
      404,
      'ROUTE_NOT_FOUND',
    );
  });

  it('puts every handler’s result in the envelope, and leaves alone what a handler writes itself', async () => {
    const user = await read('/user', bearer(alice.appToken));
    expect(user.body).toEqual({
      success: true,
      errors: [],
      debug: [],
      meta: [],
      messages: [],
      data: expect.objectContaining({ username: alice.account.username }),
    });
    const created = await tokenClient(svc, alice.appToken).post(`/user/device/${newEui()}`);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ success: true, data: { uid: expect.any(Number) } });
    // The metrics scrape writes its own text: no envelope around it.
    const metrics = await svc.http().get('/metrics').expect(200);
    expect(metrics.headers['content-type']).toMatch(/^text\/plain/);
    expect(metrics.text).toMatch(/^# HELP /m);
  });

  it('answers HEAD with a GET route’s headers, and a conditional read with 304', async () => {
    const first = await read(`/user/device/meta/${eui}`, bearer(alice.appToken));
    const head = await svc
      .http()
      .head(`/user/device/meta/${eui}`)
      .set(...bearer(alice.appToken));
    expect(head.status).toBe(200);
    expect(head.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(head.headers['etag']).toBe(first.headers['etag']);
    const conditional = await read(`/user/device/meta/${eui}`, bearer(alice.appToken), ['If-None-Match', String(first.headers['etag'])]);
    expect(conditional.status).toBe(304);
    expect(conditional.headers['x-request-id']).toBeDefined();
  });

  it('refuses before the handler, on every route alike: no credentials, a bad token, two tokens, another account’s device', async () => {
    for (const path of ['/user', '/user/token', `/user/device/meta/${eui}`]) {
      expectError(await read(path), 401, 'AUTH_REQUIRED');
      expectError(await read(path, bearer('0'.repeat(64))), 401, 'INVALID_TOKEN', 'Authorization');
      expectError(await read(path, bearer(alice.appToken), ['token', bob.appToken]), 400, 'CONFLICTING_CREDENTIALS', 'Authorization');
    }
    expectError(await read(`/user/device/meta/${eui}`, bearer(bob.appToken)), 404, 'NOT_FOUND');
  });

  it('sets the request id and the budget headers on every answer, and counts each under its route template', async () => {
    const count = async (route: string) => {
      const text = (await svc.http().get('/metrics').expect(200)).text;
      const line = text
        .split('\n')
        .find((l) => l.startsWith('dts_http_request_duration_seconds_count{') && l.includes(`route="${route}"`) && l.includes('status="200"'));
      return Number(line?.split(' ').pop() ?? 0);
    };
    const before = await count('/user/device/meta/:eui');
    let remaining = Infinity;
    for (let i = 0; i < 3; i++) {
      const res: Response = await read(`/user/device/meta/${eui}`, bearer(alice.appToken), ['X-Request-Id', `lb-${i}`]);
      expect(res.headers['x-request-id']).toBe(`lb-${i}`);
      const left = Number(res.headers['x-ratelimit-remaining-account']);
      expect(left).toBeLessThan(remaining);
      remaining = left;
      expect(Number(res.headers['x-ratelimit-limit-account'])).toBeGreaterThan(left);
    }
    expect(await count('/user/device/meta/:eui')).toBe(before + 3);
  });
});

describe('routing within the account budget', () => {
  let svc: TestService;

  beforeAll(async () => {
    svc = await startTestService({ env: { RATE_LIMIT_PER_MINUTE: '5' } });
  });
  afterAll(() => svc?.close());

  it('counts every route’s calls in one budget and refuses past it on any route', async () => {
    // Registration, login and the two tokens are calls of their own: five a minute leaves one or two.
    const carol = await accountWithCredentials(svc, 'budget');
    const answers: Response[] = [];
    for (const path of ['/user', '/user/device', '/user/token'])
      answers.push(
        await svc
          .http()
          .get(path)
          .set(...bearer(carol.appToken)),
      );
    const refused = answers.find((res) => res.status === 429);
    expect(refused).toBeDefined();
    expectError(refused!, 429, 'RATE_LIMITED');
    expect(Number(refused!.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(refused!.headers['retry-after-account'])).toBeGreaterThan(0);
    // Another route, another credential of the same account: the same budget, spent.
    expectError(
      await svc
        .http()
        .get('/user/device')
        .set(...bearer(carol.masterToken)),
      429,
      'RATE_LIMITED',
    );
  });
});
