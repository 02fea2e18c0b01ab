import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { registerAccount } from './support/accounts';
import { expectError, expectSuccess } from './support/envelope';
import { startTestService, type TestService } from './support/harness';

const median = (xs: number[]): number => {
  const middle = [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  if (middle === undefined) throw new Error('the median of no times');
  return middle;
};
const address = (i: number) => `198.51.100.${i % 250}`;
const unique = (prefix: string) => `${prefix}_${randomBytes(4).toString('hex')}`;

/**
 * Requests from the wrong place (docs/api.md §3): X-Forwarded-For is believed only from the
 * configured proxy (TRUST_PROXY, none by default), the login limit per address is backed by one per
 * account that no address change resets, and the account routes do the same work whatever the
 * address, so that neither their answers nor their time tell who has an account.
 */
describe('proxy trust and the login limits', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService({ env: { AUTH_RATE_LIMIT_PER_MINUTE: '3' } });
  });
  afterAll(() => svc?.close());

  it('by default believes no X-Forwarded-For: the peer is the client', async () => {
    const echo = expectSuccess<{ ip: string }>(await svc.http().get('/auth/echo').set('X-Forwarded-For', '203.0.113.7'));
    expect(echo.ip).toMatch(/127\.0\.0\.1|::1/);
  });

  it('rotating X-Forwarded-For does not reset the login and restore limits', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      statuses.push(
        (
          await svc
            .http()
            .post('/auth/login')
            .set('X-Forwarded-For', address(i))
            .send({ username: 'victim_x', password: `guess-${i}` })
        ).status,
      );
    }
    expect(statuses).toEqual([401, 401, 401, 429, 429, 429]);
    const restores: number[] = [];
    for (let i = 0; i < 5; i++)
      restores.push((await svc.http().post('/auth/restore').set('X-Forwarded-For', address(i)).send({ email: 'victim@example.org' })).status);
    expect(restores).toEqual([200, 200, 200, 429, 429]);
  });
});

describe('behind a trusted proxy: the per-account failure limit', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService({ env: { TRUST_PROXY: 'loopback', AUTH_RATE_LIMIT_PER_MINUTE: '3', LOGIN_FAILURES_PER_ACCOUNT: '5' } });
  });
  afterAll(() => svc?.close());

  it('believes the proxy’s X-Forwarded-For, and still stops 40 guesses from 40 addresses at the account’s limit, the right password too', async () => {
    expect(expectSuccess<{ ip: string }>(await svc.http().get('/auth/echo').set('X-Forwarded-For', '203.0.113.7')).ip).toBe('203.0.113.7');
    const victim = await registerAccount(svc, 'victim');
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) {
      statuses.push(
        (
          await svc
            .http()
            .post('/auth/login')
            .set('X-Forwarded-For', address(i))
            .send({ username: victim.username, password: `guess-${i}` })
        ).status,
      );
    }
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(new Set(statuses.slice(5))).toEqual(new Set([429]));
    const right = await svc.http().post('/auth/login').set('X-Forwarded-For', address(99)).send({ username: victim.username, password: victim.password });
    expectError(right, 429, 'RATE_LIMITED');
    expect(Number(right.headers['retry-after'])).toBeGreaterThan(0);
    // By e-mail or by another case, the same account name is the same counter only when written the same: the username is.
    expect(
      (await svc.http().post('/auth/check').set('X-Forwarded-For', address(100)).send({ username: victim.username.toUpperCase(), password: 'x' })).status,
    ).toBe(429);
    // Another account is not held back.
    const bystander = await registerAccount(svc, 'bystander');
    expect(
      (await svc.http().post('/auth/login').set('X-Forwarded-For', address(101)).send({ username: bystander.username, password: bystander.password })).status,
    ).toBe(200);
  });
});

describe('enumeration: the account routes answer alike, in content and time', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService({ env: { AUTH_RATE_LIMIT_PER_MINUTE: '1000' } });
  });
  afterAll(() => svc?.close());

  /** Alternating calls (so drift hits both alike); the median time of each. */
  async function timed(rounds: number, a: () => Promise<unknown>, b: () => Promise<unknown>) {
    const ta: number[] = [];
    const tb: number[] = [];
    for (let i = 0; i < rounds; i++) {
      for (const [call, into] of (i % 2
        ? [
            [a, ta],
            [b, tb],
          ]
        : [
            [b, tb],
            [a, ta],
          ]) as [() => Promise<unknown>, number[]][]) {
        const started = performance.now();
        await call();
        into.push(performance.now() - started);
      }
    }
    return { a: median(ta), b: median(tb) };
  }

  it('POST /auth/restore: a known and an unknown address get the same answer and take as long', async () => {
    const known = await registerAccount(svc, 'known');
    const answers = [
      await svc.http().post('/auth/restore').send({ email: known.email }),
      await svc
        .http()
        .post('/auth/restore')
        .send({ email: `${unique('nobody')}@example.org` }),
    ];
    expect(answers.map((r) => [r.status, r.body.messages])).toEqual([answers[0]!, answers[0]!].map((r) => [r.status, r.body.messages]));
    const t = await timed(
      30,
      () => svc.http().post('/auth/restore').send({ email: known.email }),
      () =>
        svc
          .http()
          .post('/auth/restore')
          .send({ email: `${unique('nobody')}@example.org` }),
    );
    process.stdout.write(`enumeration: restore median known ${t.a.toFixed(1)} ms, unknown ${t.b.toFixed(1)} ms\n`);
    // Tolerant: the two medians within 35 % of the larger, plus 3 ms of timer noise (before: 24 vs 13 ms).
    expect(Math.abs(t.a - t.b)).toBeLessThanOrEqual(0.35 * Math.max(t.a, t.b) + 3);
  });

  it('POST /auth/register: a taken address costs what a free one does (both hash the password and try the insert)', async () => {
    const taken = await registerAccount(svc, 'taken');
    const t = await timed(
      12,
      () =>
        svc
          .http()
          .post('/auth/register')
          .send({ username: unique('u'), email: taken.email, password: 'some-password-0123' }),
      () =>
        svc
          .http()
          .post('/auth/register')
          .send({ username: unique('u'), email: `${unique('free')}@example.org`, password: 'some-password-0123' }),
    );
    process.stdout.write(`enumeration: register median taken address ${t.a.toFixed(1)} ms, free ${t.b.toFixed(1)} ms\n`);
    expect(Math.abs(t.a - t.b)).toBeLessThanOrEqual(0.35 * Math.max(t.a, t.b) + 3);
  });
});
