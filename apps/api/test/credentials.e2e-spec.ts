import { PasswordResetsRepository } from '@dts/persistence';
import { eventually, TokenCryptoService } from '@dts/platform';
import { randomBytes } from 'node:crypto';
import { accountWithCredentials, bearer, createToken, login } from './support/accounts';
import { expectError, expectSuccess } from './support/envelope';
import { startTestService, TEST_SECRETS, type TestService } from './support/harness';
import { type OpenStream, openStream, within } from './support/streams';

type Caller = Awaited<ReturnType<typeof accountWithCredentials>>;
const newEui = () => randomBytes(8).toString('hex').toUpperCase();
const sqlTime = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
/** How long a revoked stream may take to be cut: a notice on the bus and one query. */
const CUT_MS = 5_000;

/**
 * Credentials that end take what they opened with them (docs/api.md §3): a live stream re-validates
 * its credential when the account's credentials change, on every instance (two instances here, one
 * database: the notice crosses through LISTEN/NOTIFY or Redis); a token never outlives its
 * creator; a password reset ends every token.
 */
describe('credentials: revocation reaches open streams, token lifetimes', () => {
  let svc: TestService;
  let other: TestService;

  const live = (instance: TestService, eui: string, header: [string, string]) =>
    openStream(`${instance.url}/user/device/live/${eui}`, { [header[0]]: header[1] });
  const withDevice = async (prefix: string) => {
    const who = await accountWithCredentials(svc, prefix);
    const eui = newEui();
    expectSuccess(
      await svc
        .http()
        .post(`/user/device/${eui}`)
        .set(...bearer(who.masterToken))
        .send({}),
      201,
    );
    return { who, eui };
  };
  /**
   * The streams still serve: a new uplink of the device reaches each of them. Its notice crosses the
   * bus after the revocation's, so a stream the revocation was going to cut would be cut by now.
   */
  let fcnt = 0;
  const stillServe = async (eui: string, streams: OpenStream[]) => {
    const uplinks = (s: OpenStream) => s.text().split('event: uplink').length - 1;
    const before = streams.map(uplinks);
    await svc
      .http()
      .post('/ingest/rest')
      .set('X-Ingest-Secret', TEST_SECRETS.INGEST_SECRET)
      .send({ devEUI: eui, port: 1, payload_hex: '00', fcnt: ++fcnt })
      .expect(202);
    await eventually(() => streams.every((s, i) => uplinks(s) > before[i]!), { what: 'the new uplink on every stream kept' });
    expect(streams.map((s) => s.isClosed())).toEqual(streams.map(() => false));
  };
  const resetTokenFor = async (who: Caller) => {
    const token = randomBytes(32).toString('hex');
    await svc.app
      .get(PasswordResetsRepository, { strict: false })
      .replace(svc.app.get(TokenCryptoService, { strict: false }).digest(token), who.account.id, new Date(Date.now() + 3_600_000));
    return token;
  };

  beforeAll(async () => {
    svc = await startTestService({ env: { STREAMS_PER_ACCOUNT: '3', EXPORTS_PER_ACCOUNT: '2' } });
    other = await startTestService({ sameDatabaseAs: svc, env: { STREAMS_PER_ACCOUNT: '3', WORKER_IN_PROCESS: 'false' } });
  });
  afterAll(async () => {
    await other?.close();
    await svc?.close();
  });

  it('a deleted token’s stream is cut, on the other instance too; the account’s other streams go on', async () => {
    const { who, eui } = await withDevice('rv_token');
    const doomed = await createToken(svc, who.cookie, 'API');
    const here = await live(svc, eui, bearer(doomed.value));
    const there = await live(other, eui, bearer(doomed.value));
    const kept = await live(other, eui, bearer(who.appToken));
    expect([here.status, there.status, kept.status]).toEqual([200, 200, 200]);
    expectSuccess(
      await svc
        .http()
        .delete('/user/token')
        .set(...bearer(who.masterToken))
        .send({ uid: doomed.uid }),
    );
    await within(Promise.all([here.closed, there.closed]), CUT_MS, 'cutting both streams of the deleted token');
    await stillServe(eui, [kept]);
    kept.close();
  });

  it('logout cuts the session’s stream; a password change cuts the other sessions’ streams, not the caller’s, and keeps tokens', async () => {
    const { who, eui } = await withDevice('rv_session');
    const second = await login(svc, who.account);
    const third = await login(svc, who.account);
    const s2 = await live(other, eui, ['Cookie', second]);
    const s3 = await live(svc, eui, ['Cookie', third]);
    const own = await live(svc, eui, ['Cookie', who.cookie]);
    expectSuccess(await svc.http().post('/auth/logout').set('Cookie', second));
    await within(s2.closed, CUT_MS, 'cutting the logged-out session’s stream');
    expectSuccess(
      await svc.http().post('/auth/pwdchange').set('Cookie', who.cookie).send({ current_password: who.account.password, new_password: 'a-new-password-0123' }),
    );
    await within(s3.closed, CUT_MS, 'cutting the other session’s stream');
    await stillServe(eui, [own]);
    own.close();
    // Decided (README, Credentials): a password change keeps the API tokens; a reset ends them.
    expectSuccess(
      await svc
        .http()
        .get('/user')
        .set(...bearer(who.appToken)),
    );
  });

  it('ending a session by its id cuts its stream on the other instance; ending the others cuts theirs, not the caller’s', async () => {
    const { who, eui } = await withDevice('rv_ended');
    const second = await login(svc, who.account);
    const third = await login(svc, who.account);
    const s2 = await live(other, eui, ['Cookie', second]);
    const s3 = await live(other, eui, ['Cookie', third]);
    const own = await live(svc, eui, ['Cookie', who.cookie]);
    const byToken = await live(other, eui, bearer(who.appToken));
    const ids = async (cookie: string) =>
      expectSuccess<{ id: string; current: boolean }[]>(await svc.http().get('/user/session').set('Cookie', cookie)).find((s) => s.current)!.id;
    expectSuccess(
      await svc
        .http()
        .delete(`/user/session/${await ids(second)}`)
        .set('Cookie', who.cookie),
    );
    await within(s2.closed, CUT_MS, 'cutting the ended session’s stream');
    expect(s3.isClosed()).toBe(false);
    expectSuccess(await svc.http().delete('/user/session').set('Cookie', who.cookie));
    await within(s3.closed, CUT_MS, 'cutting the other sessions’ streams');
    await stillServe(eui, [own, byToken]);
    own.close();
    byToken.close();
  });

  it('a password reset ends every session and token, and their streams', async () => {
    const { who, eui } = await withDevice('rv_reset');
    const byToken = await live(other, eui, bearer(who.appToken));
    const bySession = await live(svc, eui, ['Cookie', who.cookie]);
    const token = await resetTokenFor(who);
    expectSuccess(await svc.http().post('/auth/restore').send({ token, password: 'reset-password-0123' }));
    await within(Promise.all([byToken.closed, bySession.closed]), CUT_MS, 'cutting every stream of the account');
    expectError(
      await svc
        .http()
        .get('/user')
        .set(...bearer(who.appToken)),
      401,
      'INVALID_TOKEN',
    );
    expectError(
      await svc
        .http()
        .get('/user')
        .set(...bearer(who.masterToken)),
      401,
      'INVALID_TOKEN',
    );
  });

  it('deleting the account cuts its streams', async () => {
    const { who, eui } = await withDevice('rv_delete');
    const stream = await live(other, eui, bearer(who.appToken));
    expectSuccess(
      await svc
        .http()
        .delete('/auth/register')
        .set(...bearer(who.masterToken))
        .send({ password: who.account.password }),
    );
    await within(stream.closed, CUT_MS, 'cutting the deleted account’s stream');
  });

  it('one live reset token per account: a newer one replaces the older', async () => {
    const { who } = await withDevice('rv_one');
    const first = await resetTokenFor(who);
    const second = await resetTokenFor(who);
    expectError(await svc.http().post('/auth/restore').send({ token: first, password: 'first-password-0123' }), 400, 'INVALID_RESET_TOKEN');
    expectSuccess(await svc.http().post('/auth/restore').send({ token: second, password: 'second-password-0123' }));
  });

  it('a token never outlives the token that creates it; a stream ends at its token’s expiry', async () => {
    const { who, eui } = await withDevice('rv_life');
    const until = Date.now() + 4_000;
    const parent = await createToken(svc, who.cookie, 'API', { until: sqlTime(until) });
    const childUid = expectSuccess<number>(
      await svc
        .http()
        .post('/user/token')
        .set(...bearer(parent.value))
        .send({ type: 'API', name: 'child' }),
      201,
    );
    const listed = expectSuccess<{ uid: number; until: string | null }[]>(
      await svc
        .http()
        .get('/user/token')
        .set(...bearer(who.masterToken)),
    );
    expect(listed.find((t) => t.uid === childUid)?.until).toBe(sqlTime(until));
    const later = expectError(
      await svc
        .http()
        .post('/user/token')
        .set(...bearer(parent.value))
        .send({ type: 'API', until: sqlTime(until + 60_000) }),
      400,
      'VALIDATION_FAILED',
      'until',
    );
    expect(later[0]!.message).toContain(sqlTime(until));
    // A session's tokens are not bound to the session.
    const free = await createToken(svc, who.cookie, 'API');
    expect(listed.find((t) => t.uid === free.uid)).toBeUndefined();
    expect(
      expectSuccess<{ uid: number; until: string | null }[]>(
        await svc
          .http()
          .get('/user/token')
          .set(...bearer(who.masterToken)),
      ).find((t) => t.uid === free.uid)?.until,
    ).toBeNull();

    const child = expectSuccess<{ uid: number; hash: string }[]>(
      await svc
        .http()
        .get('/user/token')
        .set(...bearer(who.masterToken)),
    ).find((t) => t.uid === childUid)!;
    const stream = await live(svc, eui, bearer(child.hash));
    expect(stream.status).toBe(200);
    await within(stream.closed, 10_000, 'ending the stream at its token’s expiry');
    expect(Date.now()).toBeGreaterThanOrEqual(until - 1_000);
    expectError(
      await svc
        .http()
        .get('/user')
        .set(...bearer(child.hash)),
      401,
      'TOKEN_EXPIRED',
    );
  });

  it('caps live streams per account before any database work (429 with Retry-After); other accounts are served', async () => {
    const { who, eui } = await withDevice('rv_cap');
    const open = await Promise.all([0, 1, 2].map(() => live(svc, eui, bearer(who.appToken))));
    expect(open.map((s) => s.status)).toEqual([200, 200, 200]);
    const refused = await svc
      .http()
      .get(`/user/device/live/${eui}`)
      .set(...bearer(who.appToken));
    expectError(refused, 429, 'RATE_LIMITED');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    const { who: someone, eui: theirs } = await withDevice('rv_cap_other');
    const theirStream = await live(svc, theirs, bearer(someone.appToken));
    expect(theirStream.status).toBe(200);
    open[0]!.close();
    // The slot frees once the server has seen the close.
    const again = await eventually(
      async () => {
        const s = await live(svc, eui, bearer(who.appToken));
        if (s.status !== 200) s.close();
        expect(s.status).toBe(200);
        return s;
      },
      { what: 'a stream in the freed slot' },
    );
    for (const s of [...open, again, theirStream]) s.close();
  });
});
