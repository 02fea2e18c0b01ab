import { randomBytes } from 'node:crypto';
import { get, type IncomingHttpHeaders } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { Response } from 'supertest';
import { accountWithCredentials, bearer, createToken, tokenClient } from './support/accounts';
import { expectError, expectSuccess } from './support/envelope';
import { startTestService, type TestService } from './support/harness';

/*
 * GET /user/device is answered by the hot lane (apps/api/src/common/http/hot-lane.ts) before
 * Express. The same request with an empty query string (`/user/device?`) is not the lane's and goes
 * through Express and Nest's pipeline: each answer of the lane is compared with the router's.
 */

type Caller = Awaited<ReturnType<typeof accountWithCredentials>>;

const LANE = '/user/device';
const ROUTER = '/user/device?';
const newEui = () => randomBytes(8).toString('hex').toUpperCase();

/** What differs between any two answers: the request's own id, the clock, and the budget left. */
const PER_REQUEST = new Set(['x-request-id', 'date', 'x-ratelimit-remaining-account', 'retry-after-account', 'retry-after']);
const comparable = (res: Response) => ({
  status: res.status,
  body: res.body as unknown,
  headers: Object.fromEntries(Object.entries(res.headers).filter(([name]) => !PER_REQUEST.has(name))),
});

describe('the hot lane', () => {
  let svc: TestService;
  let alice: Caller;
  let bob: Caller;
  let aliceDevices: string[];

  const read = (path: string, ...headers: [string, string][]) => {
    const req = svc.http().get(path);
    for (const header of headers) req.set(...header);
    return req;
  };

  beforeAll(async () => {
    // Room for a device list past the compression threshold (1 KiB: about 55 EUIs).
    svc = await startTestService({ env: { ACCOUNT_MAX_DEVICES: '100' } });
    [alice, bob] = await Promise.all([accountWithCredentials(svc, 'lane'), accountWithCredentials(svc, 'lane')]);
    aliceDevices = [newEui(), newEui()].sort();
    for (const eui of aliceDevices) expectSuccess(await tokenClient(svc, alice.appToken).post(`/user/device/${eui}`), 201);
    expectSuccess(await tokenClient(svc, bob.appToken).post(`/user/device/${newEui()}`), 201);
  });
  afterAll(() => svc?.close());

  it('answers a token read as the router does, with the caller’s devices only', async () => {
    const lane = await read(LANE, bearer(alice.appToken));
    const router = await read(ROUTER, bearer(alice.appToken));
    expect(expectSuccess<string[]>(lane)).toEqual(aliceDevices);
    expect(comparable(lane)).toEqual(comparable(router));
    // Headers the comparison leaves out are there all the same.
    expect(lane.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(Number(lane.headers['x-ratelimit-remaining-account'])).toBe(Number(router.headers['x-ratelimit-remaining-account']) + 1);
    expect(lane.headers['etag']).toMatch(/^W\/"/);
    // Every token form, and a load balancer's request id.
    expect(expectSuccess(await read(LANE, ['Authorization', alice.masterToken]))).toEqual(aliceDevices);
    const tokenHeader = await read(LANE, ['token', alice.appToken], ['X-Request-Id', 'lb-0123']);
    expect(expectSuccess(tokenHeader)).toEqual(aliceDevices);
    expect(tokenHeader.headers['x-request-id']).toBe('lb-0123');
    expect(expectSuccess(await read(LANE, bearer(bob.appToken)))).toHaveLength(1);
  });

  it('compresses as the router does: the same bytes, Content-Encoding, Vary and ETag, for brotli, gzip and neither', async () => {
    const carol = await accountWithCredentials(svc, 'lane');
    for (let i = 0; i < 70; i++) expectSuccess(await tokenClient(svc, carol.appToken).post(`/user/device/${newEui()}`), 201);
    /** The bytes as they came (supertest would decode them) and the headers that are not per request. */
    const rawRead = (path: string, acceptEncoding: string | null) =>
      new Promise<{ headers: IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
        const headers: Record<string, string> = { Authorization: `Bearer ${carol.appToken}`, ...(acceptEncoding ? { 'Accept-Encoding': acceptEncoding } : {}) };
        get(`${svc.url}${path}`, { headers, agent: false }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            resolve({ headers: Object.fromEntries(Object.entries(res.headers).filter(([name]) => !PER_REQUEST.has(name))), body: Buffer.concat(chunks) }),
          );
        }).on('error', reject);
      });
    for (const acceptEncoding of ['br, gzip', 'gzip', null]) {
      const lane = await rawRead(LANE, acceptEncoding);
      const router = await rawRead(ROUTER, acceptEncoding);
      expect(lane.headers).toEqual(router.headers);
      expect(lane.body.equals(router.body)).toBe(true);
      const coding = lane.headers['content-encoding'];
      expect(coding).toBe(acceptEncoding === null ? undefined : acceptEncoding.split(',')[0]);
      expect(lane.headers['vary']).toBe('Accept-Encoding');
      const text = (coding === 'br' ? brotliDecompressSync(lane.body) : coding === 'gzip' ? gunzipSync(lane.body) : lane.body).toString('utf8');
      expect((JSON.parse(text) as { data: string[] }).data).toHaveLength(70);
    }
  });

  it('refuses as the router does: no credentials, a bad token, two tokens', async () => {
    const cases: [string, [string, string][], number, string, string | undefined][] = [
      ['no credentials', [], 401, 'AUTH_REQUIRED', undefined],
      ['a blank token header', [['token', ' ']], 401, 'AUTH_REQUIRED', undefined],
      ['a bad token', [bearer('0'.repeat(64))], 401, 'INVALID_TOKEN', 'Authorization'],
      ['not a token at all', [bearer('nope')], 401, 'INVALID_TOKEN', 'Authorization'],
      ['two tokens', [bearer(alice.appToken), ['token', bob.appToken]], 400, 'CONFLICTING_CREDENTIALS', 'Authorization'],
    ];
    for (const [, headers, status, code, field] of cases) {
      const lane = await read(LANE, ...headers);
      expectError(lane, status, code, field);
      expect(comparable(lane)).toEqual(comparable(await read(ROUTER, ...headers)));
    }
  });

  it('refuses a deleted token at once', async () => {
    const token = await createToken(svc, alice.cookie, 'API');
    expectSuccess(await read(LANE, bearer(token.value)));
    expectSuccess(
      await svc
        .http()
        .delete('/user/token')
        .set(...bearer(alice.masterToken))
        .send({ uid: token.uid }),
    );
    expectError(await read(LANE, bearer(token.value)), 401, 'INVALID_TOKEN', 'Authorization');
  });

  it('leaves to the router what is not a plain token read: a session, a conditional request, a body, HEAD', async () => {
    expect(expectSuccess(await read(LANE, ['Cookie', alice.cookie]))).toEqual(aliceDevices);
    const first = await read(LANE, bearer(alice.appToken));
    const conditional = await read(LANE, bearer(alice.appToken), ['If-None-Match', String(first.headers['etag'])]);
    expect(conditional.status).toBe(304);
    expect(conditional.headers['x-request-id']).toBeDefined();
    // A body on a read is the router's to refuse.
    expectError(await read(LANE, bearer(alice.appToken), ['Content-Type', 'application/json']).send('{'), 400, 'MALFORMED_JSON');
    const head = await svc
      .http()
      .head(LANE)
      .set(...bearer(alice.appToken));
    expect(head.status).toBe(200);
    expect(head.headers['content-type']).toBe('application/json; charset=utf-8');
  });

  it('counts every answer in the request metric under the route template', async () => {
    const count = async () => {
      const text = (await svc.http().get('/metrics').expect(200)).text;
      const line = text
        .split('\n')
        .find((l) => l.startsWith('dts_http_request_duration_seconds_count{') && l.includes('route="/user/device"') && l.includes('status="200"'));
      return Number(line?.split(' ').pop() ?? 0);
    };
    const before = await count();
    for (let i = 0; i < 3; i++) expectSuccess(await read(LANE, bearer(bob.appToken)));
    expect(await count()).toBe(before + 3);
  });
});

describe('the hot lane within the account budget', () => {
  let svc: TestService;

  beforeAll(async () => {
    svc = await startTestService({ env: { RATE_LIMIT_PER_MINUTE: '4' } });
  });
  afterAll(() => svc?.close());

  it('counts its reads in the budget every route shares, and refuses past it as the router does', async () => {
    // Registration, login and the two tokens are calls of their own: four per minute is the whole budget.
    const carol = await accountWithCredentials(svc, 'budget');
    const answers: Response[] = [];
    for (let i = 0; i < 3; i++)
      answers.push(
        await svc
          .http()
          .get(LANE)
          .set(...bearer(carol.appToken)),
      );
    const refused =
      answers.find((res) => res.status === 429) ??
      (await svc
        .http()
        .get(LANE)
        .set(...bearer(carol.appToken)));
    expectError(refused, 429, 'RATE_LIMITED');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(refused.headers['retry-after-account'])).toBeGreaterThan(0);
    const router = await svc
      .http()
      .get(ROUTER)
      .set(...bearer(carol.appToken));
    expect(comparable(refused)).toEqual(comparable(router));
    // Another route refuses the account too: one budget.
    expectError(
      await svc
        .http()
        .get('/user/token')
        .set(...bearer(carol.masterToken)),
      429,
      'RATE_LIMITED',
    );
  });
});
