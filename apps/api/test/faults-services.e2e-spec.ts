import { randomBytes } from 'node:crypto';
import { accountOverHttp, call, describeAnswers, type LoadReport, type LoadTargets, startLoad } from './support/fault-load';
import { eventually, pause } from '@dts/platform';
import { API_MAIN, composeEnvironment, exitedWithin, startProcess, WORKER_MAIN } from './support/processes';
import { type FaultTopology, type Instance, startFaultTopology, startPrivateRedis } from './support/services';
import { realDatabaseUrl, realRedisUrl } from './support/test-database';

/*
 * Fault injection on the servers the service depends on, with traffic running: PostgreSQL stopped
 * for 30 s and started again, Redis stopped and started, and an evicting Redis refused at start-up.
 * The api and the worker are the real processes from dist/ with compose's environment, on a
 * PostgreSQL and a Redis of this suite's own (stopping the shared ones would break the suites
 * running beside it).
 *
 * Only with a real PostgreSQL and Redis (TEST_DATABASE_URL, TEST_REDIS_URL): the embedded database
 * lives inside the api process and cannot be stopped apart from it. With them, a missing
 * postgres or redis-server binary fails the suite rather than skipping it.
 */

const TITLE = 'faults in PostgreSQL and Redis under traffic';
const suite = realDatabaseUrl && realRedisUrl ? describe : describe.skip;
const title = realDatabaseUrl && realRedisUrl ? TITLE : `${TITLE} (skipped: needs TEST_DATABASE_URL and TEST_REDIS_URL)`;

const OUTAGE_MS = 30_000;
const REDIS_OUTAGE_MS = 10_000;
const LOGIN_LIMIT = 5;
const newEui = () => randomBytes(8).toString('hex').toUpperCase();

/** Polls until `url` answers 200; the milliseconds it took, or throws after `ms`. */
async function readyAfter(url: string, ms: number): Promise<number> {
  const started = Date.now();
  await eventually(async () => (await call(url)).status === 200, { what: `${url} to be ready after the fault ended`, timeoutMs: ms, intervalMs: 100 });
  return Date.now() - started;
}

/** Waits until the load has had `uplinks` more uplinks and `commands` more commands accepted: traffic is flowing. */
async function loadFlowing(report: LoadReport, what: string, uplinks = 10, commands = 3): Promise<void> {
  const [u, c] = [report.accepted.size, report.commands.size];
  await eventually(() => report.accepted.size >= u + uplinks && report.commands.size >= c + commands, { what: `traffic ${what}`, timeoutMs: 30_000 });
}

suite(title, () => {
  let top: FaultTopology;
  let api: Instance;
  let worker: Instance;
  let targets: LoadTargets;

  beforeAll(async () => {
    const started = Date.now();
    top = await startFaultTopology();
    // A small login limit, for the check that rate limits still count across a Redis restart.
    [api, worker] = await Promise.all([top.startApi('api-1', { AUTH_RATE_LIMIT_PER_MINUTE: String(LOGIN_LIMIT) }), top.startWorker('worker')]);

    const { cookie, token: tokenValue } = await accountOverHttp(api.url, 'faults');
    const network = await call(`${api.url}/user/network`, {
      method: 'POST',
      headers: { Cookie: cookie },
      json: { name: 'stand-in chirpstack', adapter: 'chirpstack', base_url: top.network.url, api_key: 'faults-key' },
    });
    const networkUid = (network.body!.data as { uid: number }).uid;
    const device = async (withNetwork: boolean) => {
      const eui = newEui();
      const made = await call(`${api.url}/user/device/${eui}`, { method: 'POST', headers: { Cookie: cookie }, json: { decoder_ref: 2 } });
      if (made.status !== 201) throw new Error(`device: ${made.status} ${JSON.stringify(made.body)}`);
      if (withNetwork) await call(`${api.url}/user/device/meta/${eui}`, { method: 'POST', headers: { Cookie: cookie }, json: { network_ref: networkUid } });
      return eui;
    };
    targets = {
      apis: () => [api.url],
      ingestSecret: top.ingestSecret,
      ingestEuis: [await device(false), await device(false)],
      commandEuis: [await device(true), await device(true)],
      token: tokenValue,
      cookie,
    };
    process.stdout.write(
      `fault topology up in ${Date.now() - started} ms (private PostgreSQL initdb+start ${top.pg.startupMs} ms, Redis ${top.redis.startupMs} ms)\n`,
    );
  }, 120_000);

  afterAll(async () => {
    await top?.close();
  }, 60_000);

  /** Each accepted uplink is in the database exactly once, and nothing else is. */
  async function expectUplinksStoredOnce(report: LoadReport) {
    const rows = await top.query<{ eui: string; fcnt: string; n: number }>(
      `SELECT d.eui, u.fcnt, count(*)::int AS n FROM uplinks u JOIN devices d ON d.uid = u.device_id WHERE d.eui = ANY($1) GROUP BY d.eui, u.fcnt`,
      [targets.ingestEuis],
    );
    const stored = new Map(rows.map((r) => [`${r.eui}:${Number(r.fcnt)}`, r.n]));
    const missing = [...report.accepted].filter((k) => !stored.has(k));
    const twice = [...stored].filter(([, n]) => n !== 1);
    expect({ missing, twice }).toEqual({ missing: [], twice: [] });
    return stored;
  }

  /**
   * Every command answered 201 is stored once and ends Scheduled; the stand-in network got each at
   * least once. Returns the commands the network got more than once.
   */
  async function expectCommandsDispatched(report: LoadReport, withinMs: number) {
    const uids = [...report.commands.keys()];
    let rows: { uid: number; status: string; payload: string }[] = [];
    await eventually(
      async () => {
        rows = await top.query(`SELECT uid, status, encode(payload, 'hex') AS payload FROM commands WHERE uid = ANY($1)`, [uids]);
        return rows.every((r) => r.status !== 'Created');
      },
      { what: 'every command to leave Created', timeoutMs: withinMs, intervalMs: 250 },
    ).catch(() => undefined); // the expectations below say which are left
    expect(rows.filter((r) => r.status !== 'Scheduled')).toEqual([]);
    expect(rows.length).toBe(uids.length);
    // A 503 stored nothing: a payload retried after one is in the table once.
    const all = await top.query<{ payload: string; n: number }>(
      `SELECT encode(payload, 'hex') AS payload, count(*)::int AS n FROM commands GROUP BY 1 HAVING count(*) > 1`,
    );
    expect(all).toEqual([]);
    const seen = new Map<string, number>();
    for (const c of top.network.calls)
      seen.set(Buffer.from(c.data, 'base64').toString('hex'), (seen.get(Buffer.from(c.data, 'base64').toString('hex')) ?? 0) + 1);
    expect([...report.commands.values()].filter((c) => !seen.has(c.payload))).toEqual([]);
    return [...report.commands.values()].filter((c) => (seen.get(c.payload) ?? 0) > 1).map((c) => c.payload);
  }

  it('PostgreSQL stopped for 30 s then started: 503 envelopes meanwhile, recovery without a restart, nothing accepted lost or doubled', async () => {
    const callsBefore = top.network.calls.length;
    const load = startLoad(targets);
    await loadFlowing(load.report, 'before the stop');

    const stopAt = Date.now();
    top.pg.stop('fast');
    // While it is down: readiness says so on both processes, as an envelope naming the database.
    await eventually(
      async () => {
        const ready = await call(`${api.url}/health/ready`);
        expect(ready.status).toBe(503);
        expect(ready.body?.errors).toEqual(expect.arrayContaining([expect.objectContaining({ code: 'UNAVAILABLE', field: 'database' })]));
        expect((await call(`${worker.url}/health/ready`)).status).toBe(503);
      },
      { what: 'both processes to say the database is down', timeoutMs: 10_000, intervalMs: 100 },
    );
    // Real time by nature: the outage lasts OUTAGE_MS, long enough for every pool and retry to hit it.
    await pause(OUTAGE_MS - (Date.now() - stopAt));
    const restartAt = Date.now();
    const downFor = restartAt - stopAt;
    await top.pg.start();

    const [apiBack, workerBack] = await Promise.all([readyAfter(`${api.url}/health/ready`, 30_000), readyAfter(`${worker.url}/health/ready`, 30_000)]);
    await loadFlowing(load.report, 'after the restart');
    const report = await load.stop();

    // The same processes serve again: recovery without a restart.
    expect(api.proc.child.exitCode).toBeNull();
    expect(worker.proc.child.exitCode).toBeNull();
    expect(report.unexpected).toEqual([]);
    expect(report.unavailable).toBeGreaterThan(0);
    // Each sender was mid-uplink when the database went: it retried that uplink through the outage.
    expect(report.retriedUplinks.size).toBeGreaterThan(0);
    expect([...report.retriedUplinks].filter((k) => !report.accepted.has(k))).toEqual([]);
    await expectUplinksStoredOnce(report);
    const recoverStarted = Date.now();
    const twice = await expectCommandsDispatched(report, 90_000);
    const dispatchedAfter = Date.now() - recoverStarted;
    // At least once to the network by design; more than once only for a hand-off the stop cut
    // short: read from the database just before the stop, sent while it was going down, its
    // Scheduled could not be recorded, so the retry after the restart sent it again.
    const calls = top.network.calls.slice(callsBefore);
    const cut = twice.map((payload) => {
      const first = calls.find((c) => Buffer.from(c.data, 'base64').toString('hex') === payload)!;
      return { payload, firstSentAroundTheStop: first.at >= stopAt - 2_000 && first.at < restartAt };
    });
    expect(cut).toEqual(twice.map((payload) => ({ payload, firstSentAroundTheStop: true })));
    process.stdout.write(
      `PostgreSQL down ${downFor} ms: ${report.unavailable} answers were 503 UNAVAILABLE (Retry-After), no other 5xx, slowest answer ${report.maxMs} ms; api ready ${apiBack} ms and worker ${workerBack} ms after the start (no restart); ` +
        `${report.accepted.size} uplinks 202 (${report.retriedUplinks.size} after a 503 retry, ${report.duplicatesAnswered} already stored), each stored once; ` +
        `${report.commands.size} commands 201 (${report.retriedCommands.size} after a 503 retry), all Scheduled ${dispatchedAfter} ms after the check began, ${twice.length} handed to the network twice (sent as the stop began, recorded after the restart), every other once; ${describeAnswers(report)}\n`,
    );
  }, 180_000);

  it('Redis stopped and started: sessions, rate limits and queues recover; ingest never stops; nothing accepted is lost', async () => {
    const suffix = randomBytes(3).toString('hex');
    const failedLogin = () => call(`${api.url}/auth/login`, { method: 'POST', json: { username: `nobody_${suffix}`, password: 'not the password' } });
    for (let i = 0; i < 3; i++) expect((await failedLogin()).status).toBe(401);

    const load = startLoad(targets);
    await loadFlowing(load.report, 'before the stop');
    const stopAt = Date.now();
    await top.redis.stop();
    // Real time by nature: the outage lasts REDIS_OUTAGE_MS, long enough for every client to notice.
    await pause(REDIS_OUTAGE_MS);
    const downFor = Date.now() - stopAt;
    await top.redis.start();
    const [apiBack, workerBack] = await Promise.all([readyAfter(`${api.url}/health/ready`, 30_000), readyAfter(`${worker.url}/health/ready`, 30_000)]);
    await loadFlowing(load.report, 'after the restart');
    const report = await load.stop();

    expect(api.proc.child.exitCode).toBeNull();
    expect(worker.proc.child.exitCode).toBeNull();
    expect(report.unexpected).toEqual([]);
    // Ingest needs only PostgreSQL (the cache version is a row there; live notices are best-effort):
    // uplinks keep being taken. Signed-in routes answer 503 while sessions and rate limits cannot be
    // read: the limiter fails closed, a limit that stops counting would be an open door.
    expect(report.answers['POST /ingest/rest']).toEqual({ 202: report.accepted.size });
    expect(report.unavailable).toBeGreaterThan(0);
    // Nothing waits the outage out: a Redis call fails within its client's three reconnect attempts
    // (about 2 s), a command is answered once its job has had ENQUEUE_WAIT_MS to be queued, and what
    // is best-effort (live notices, a cache rebuild request) is not waited for. Before 2026-11-28 a
    // read of a stale cache entry waited for its rebuild job for the whole 10 s, and every ingest
    // batch about 2 s for its live notices (the load got 37 to 46 uplinks in, now about 450).
    expect(report.maxMs).toBeLessThan(REDIS_OUTAGE_MS / 2);
    // The session made before the stop still works (the append-only file kept it) ...
    expect((await call(`${api.url}/user`, { headers: { Cookie: targets.cookie } })).status).toBe(200);
    // ... and the login limit still counts the three failures from before the stop.
    for (let i = 3; i < LOGIN_LIMIT; i++) expect((await failedLogin()).status).toBe(401);
    const limited = await failedLogin();
    expect({ status: limited.status, code: limited.body?.errors?.[0]?.code }).toEqual({ status: 429, code: 'RATE_LIMITED' });

    await expectUplinksStoredOnce(report);
    const twice = await expectCommandsDispatched(report, 60_000);
    expect(twice).toEqual([]);
    process.stdout.write(
      `Redis down ${downFor} ms: ingest took every uplink (${report.accepted.size}×202, none refused), signed-in routes ${report.unavailable}×503 UNAVAILABLE, no other 5xx, slowest answer ${report.maxMs} ms; ` +
        `api ready ${apiBack} ms and worker ${workerBack} ms after the start; old session valid, login limit still counting (429 at attempt ${LOGIN_LIMIT + 1}); ` +
        `each uplink stored once; ${report.commands.size} commands 201, each Scheduled and handed to the network once; ${describeAnswers(report)}\n`,
    );
  }, 180_000);

  it('refuses to start the api and the worker on a Redis whose maxmemory-policy evicts, with one line naming the fix', async () => {
    const lru = await startPrivateRedis({ maxmemoryPolicy: 'allkeys-lru' });
    try {
      const env = (service: string) => ({
        ...composeEnvironment(service),
        DATABASE_URL: top.pg.url,
        REDIS_URL: lru.url,
        PORT: '0',
        WORKER_HEALTH_PORT: '0',
        LOG_LEVEL: 'warn',
      });
      const procs = [startProcess('api', process.execPath, [API_MAIN], env('api-1')), startProcess('worker', process.execPath, [WORKER_MAIN], env('worker'))];
      for (const p of procs) {
        expect(await exitedWithin(p, 20_000)).toBe(true);
        expect(await p.exited).toBe(1);
        const line =
          'Redis maxmemory-policy is allkeys-lru (from INFO memory), it must be noeviction: evicting keys would silently drop queued jobs, sessions and rate limits. Fix: start Redis with --maxmemory-policy noeviction';
        expect(p.output().split('\n')).toEqual(expect.arrayContaining([expect.stringContaining(line)]));
        // Refused before Nest started: nothing else to read past the one line.
        expect(p.output().trim().split('\n')).toHaveLength(1);
      }
    } finally {
      await lru.destroy();
    }
  }, 60_000);
});
