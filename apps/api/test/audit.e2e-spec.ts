import type { AuditEventWire } from '@dts/domain';
import { randomBytes } from 'node:crypto';
import { accountWithCredentials, bearer, login } from './support/accounts';
import { expectError, expectSuccess } from './support/envelope';
import { startTestService, type TestService } from './support/harness';

/*
 * The audit log (docs/api.md §8): every state-changing call and every sign-in recorded with who,
 * what, on what, how it ended, from where and under which request id; read by administrators only,
 * filtered, paged and exported as CSV; nothing recorded for reads, ingestion, or refusals without
 * credentials outside /auth/.
 */

type AuditEvent = AuditEventWire;

const ADMIN = { id: 0, username: 'auditadmin', email: 'auditadmin@localhost', password: 'audit admin password 1' };
const newEui = () => randomBytes(8).toString('hex').toUpperCase();

describe('the audit log: GET /admin/audit', () => {
  let svc: TestService;
  let adminCookie: string;
  // No wait before a read: the read writes what this instance holds first (read your own writes).
  const read = async (query = '') => {
    const res = await svc.http().get(`/admin/audit${query}`).set('Cookie', adminCookie);
    return { data: expectSuccess<AuditEvent[]>(res), meta: res.body.meta as { next_cursor: string | null } };
  };

  beforeAll(async () => {
    svc = await startTestService({ env: { ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password, AUTH_RATE_LIMIT_PER_MINUTE: '1000' } });
    adminCookie = await login(svc, ADMIN);
  }, 60_000);
  afterAll(() => svc?.close());

  it('records a state-changing call: who, with which token, the route and what it acted on, the answer, the address and the request id', async () => {
    const alice = await accountWithCredentials(svc, 'alice');
    const eui = newEui();
    const res = await svc
      .http()
      .post(`/user/device/${eui}`)
      .set(...bearer(alice.appToken))
      .send({ label: 'audited' });
    expectSuccess(res, 201);
    const { data } = await read(`?account_id=${alice.account.id}&action=/user/device/`);
    expect(data[0]).toEqual({
      id: expect.stringMatching(/^\d+$/),
      at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      account_id: alice.account.id,
      organisation_id: null,
      username: alice.account.username,
      token_uid: alice.appTokenUid,
      via: 'token',
      action: 'POST /user/device/{eui}',
      target: { eui },
      status: 201,
      result: 'success',
      ip: expect.stringMatching(/127\.0\.0\.1/),
      request_id: res.headers['x-request-id'],
    });
    // A refused change is recorded too, as a failure.
    expectError(
      await svc
        .http()
        .post(`/user/device/${eui}`)
        .set(...bearer(alice.appToken))
        .send({ label: 'again' }),
      409,
      'DEVICE_EXISTS',
    );
    const failures = (await read(`?account_id=${alice.account.id}&result=failure`)).data;
    expect(failures.map((e) => [e.action, e.status, e.result])).toEqual([['POST /user/device/{eui}', 409, 'failure']]);
  });

  it('records every sign-in, succeeded or not, under the name it was tried with; reads, ingestion and refusals without credentials elsewhere are not recorded', async () => {
    const bob = await accountWithCredentials(svc, 'bob');
    expectError(
      await svc.http().post('/auth/login').send({ username: bob.account.username.toUpperCase(), password: 'not the password' }),
      401,
      'INVALID_CREDENTIALS',
    );
    await login(svc, bob.account);
    expectSuccess(await svc.http().get('/user').set('Cookie', bob.cookie));
    expectError(await svc.http().post(`/user/device/${newEui()}`).send({}), 401, 'AUTH_REQUIRED');
    // A sign-in names the account it opened; a refused one, the name as typed.
    const signIns = (await read(`?username=${bob.account.username}&action=/auth/login`)).data;
    expect(signIns.map((e) => [e.username, e.status, e.result, e.account_id])).toEqual([
      [bob.account.username, 200, 'success', bob.account.id],
      [bob.account.username.toUpperCase(), 401, 'failure', null],
      // accountWithCredentials signed in once before.
      [bob.account.username, 200, 'success', bob.account.id],
    ]);
    const all = (await read(`?account_id=${bob.account.id}`)).data;
    expect(all.map((e) => e.action)).toEqual(['POST /auth/login', 'POST /user/token', 'POST /user/token', 'POST /auth/login']);
    expect((await read('?action=GET ')).data).toEqual([]);
    expect((await read('?action=/ingest/')).data).toEqual([]);
  });

  it('records what administrators do', async () => {
    const carol = await accountWithCredentials(svc, 'carol');
    expectSuccess(await svc.http().patch(`/admin/accounts/${carol.account.id}`).set('Cookie', adminCookie).send({ active: 0 }));
    const [event] = (await read('?action=PATCH /admin/accounts/')).data;
    expect(event).toMatchObject({
      username: ADMIN.username,
      via: 'session',
      token_uid: null,
      action: 'PATCH /admin/accounts/{id}',
      target: { id: String(carol.account.id) },
      status: 200,
    });
  });

  it('pages newest first without repeats, narrows by time, and exports every match as CSV', async () => {
    const dan = await accountWithCredentials(svc, 'dan');
    for (let i = 0; i < 5; i++)
      expectSuccess(
        await svc
          .http()
          .post(`/user/device/${newEui()}`)
          .set(...bearer(dan.appToken))
          .send({}),
        201,
      );
    const whole = (await read(`?account_id=${dan.account.id}`)).data;
    // Its sign-in, its two tokens and five devices.
    expect(whole).toHaveLength(8);
    const paged: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { data: AuditEvent[]; meta: { next_cursor: string | null } } = await read(
        `?account_id=${dan.account.id}&limit=2${cursor ? `&cursor=${cursor}` : ''}`,
      );
      expect(page.data.length).toBeLessThanOrEqual(2);
      paged.push(...page.data.map((e) => e.id));
      cursor = page.meta.next_cursor;
    } while (cursor);
    expect(paged).toEqual(whole.map((e) => e.id));
    const times = whole.map((e) => Date.parse(e.at));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    const future = Math.floor(Date.now() / 1000) + 3_600;
    expect((await read(`?account_id=${dan.account.id}&from=${future}`)).data).toEqual([]);
    expect((await read(`?account_id=${dan.account.id}&to=${future}`)).data).toHaveLength(8);

    const csv = await svc.http().get(`/admin/audit?account_id=${dan.account.id}&format=csv`).set('Cookie', adminCookie);
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toBe('attachment; filename="audit.csv"');
    const lines = csv.text.trimEnd().split('\r\n');
    expect(lines[0]).toBe('id,at,account_id,organisation_id,username,token_uid,via,action,target,status,result,ip,request_id');
    expect(lines.slice(1).map((l) => l.split(',')[0])).toEqual(whole.map((e) => e.id));
    expect(lines[1]).toContain(',POST /user/device/{eui},');
  });

  it.each<[string, string, string]>([
    ['a limit of none', '?limit=0', 'limit'],
    ['a limit past the most', '?limit=1001', 'limit'],
    ['a result that is neither', '?result=maybe', 'result'],
    ['an account that is no number', '?account_id=x', 'account_id'],
    ['a made-up cursor', '?cursor=WzFd', 'cursor'],
    ['a time range that ends before it starts', '?from=2000&to=1000', 'to'],
    ['a page size with the CSV export', '?format=csv&limit=5', 'limit'],
    ['an unknown format', '?format=xml', 'format'],
    ['an unknown member', '?account=3', 'account'],
  ])('refuses %s with 400 naming it', async (_what, query, field) => {
    expectError(await svc.http().get(`/admin/audit${query}`).set('Cookie', adminCookie), 400, 'VALIDATION_FAILED', field);
  });

  it('is for administrators only: 403 ADMIN_ONLY for an account, whatever its credentials, 401 without; no route changes a record', async () => {
    const eve = await accountWithCredentials(svc, 'eve');
    expectError(
      await svc
        .http()
        .get('/admin/audit')
        .set(...bearer(eve.masterToken)),
      403,
      'ADMIN_ONLY',
    );
    expectError(await svc.http().get('/admin/audit').set('Cookie', eve.cookie), 403, 'ADMIN_ONLY');
    expectError(await svc.http().get('/admin/audit'), 401, 'AUTH_REQUIRED');
    const routes = expectSuccess<{ method: string; path: string }[]>(await svc.http().get('/routes'));
    expect(routes.filter((r) => r.path.startsWith('/admin/audit'))).toEqual([expect.objectContaining({ method: 'GET', path: '/admin/audit' })]);
  });
});
