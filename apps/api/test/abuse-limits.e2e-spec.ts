import { freePort, pause } from '@dts/platform';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createReadStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { accountOverHttp, call } from './support/fault-load';
import { API_MAIN, composeEnvironment, type Proc, startProcess, stopProcesses, waitReady } from './support/processes';
import { createTestDatabase, realDatabaseUrl, realRedisUrl, type TestDatabase } from './support/test-database';

/*
 * Abuse limits (issue #9) at the api itself: the largest legal history export does not starve
 * small requests: a small GET keeps answering while four 100,000-row reads stream from the same api
 * process (goal: p99 under 100 ms). Slow clients are slow-clients.e2e-spec.ts's; the load
 * balancer's own limits are in deployment.e2e-spec.ts, and login brute force across instances
 * there and in multi-instance.e2e-spec.ts.
 */

const EXPORT_ROWS = 100_000;
const STREAMS = 4;
const ROUNDS = 2;
/** One small GET every this many ms, on schedule whether or not the last one answered (open loop). */
const SMALL_EVERY_MS = 20;
/**
 * The goal is a p99 under 100 ms. On a 2-core machine where the api, PostgreSQL, four curl
 * readers and this client share the cores, measured runs give 110–450 ms (p50 13–40 ms), so the
 * goal is reported (docs/reliability.md) and these bounds fail only on starvation: before bulk
 * reads were scheduled (common/http/bulk-scheduler.ts) the same run gave p50 654 ms, p99 2,378 ms.
 */
const P99_GOAL_MS = 100;
const P50_LIMIT_MS = 100;
const P99_LIMIT_MS = 1_000;

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
};

/** Small GETs on a fixed schedule until `until` settles; each one's latency. */
async function smallGets(url: string, token: string, until: Promise<unknown>): Promise<{ latencies: number[]; failures: string[] }> {
  const latencies: number[] = [];
  const failures: string[] = [];
  const inFlight: Promise<void>[] = [];
  let done = false;
  void until.finally(() => (done = true));
  const started = Date.now();
  for (let i = 0; !done; i++) {
    inFlight.push(
      call(url, { headers: { Authorization: `Bearer ${token}` } }).then((a) => {
        if (a.status === 200) latencies.push(a.ms);
        else failures.push(`${a.status} ${a.error ?? JSON.stringify(a.body).slice(0, 200)}`);
      }),
    );
    const next = started + (i + 1) * SMALL_EVERY_MS;
    // The open-loop schedule: a small GET every SMALL_EVERY_MS of real time, answered or not.
    await pause(Math.max(0, next - Date.now()));
  }
  await Promise.all(inFlight);
  return { latencies, failures };
}

/**
 * A read of the whole export by curl, in a process of its own, so that this process stays free to
 * time the small requests; the body goes to a file whose rows are counted afterwards.
 */
function curlExport(url: string, token: string, file: string): Promise<{ status: number; bytes: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn('curl', ['-sS', '-o', file, '-w', '%{http_code} %{size_download}', '-H', `Authorization: Bearer ${token}`, url], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) => {
      const [status, bytes] = out.trim().split(' ').map(Number);
      if (code !== 0) reject(new Error(`curl exited ${code}: ${out}`));
      else resolve({ status: status!, bytes: bytes! });
    });
  });
}

/** How many times `marker` occurs in a file, read as a stream. */
async function countMarker(file: string, marker: string): Promise<number> {
  let count = 0;
  let carry = '';
  for await (const chunk of createReadStream(file, { encoding: 'utf8' })) {
    const text = carry + (chunk as string);
    count += text.split(marker).length - 1;
    carry = text.slice(-(marker.length - 1));
  }
  return count;
}

const TITLE = 'four 100,000-row exports do not starve small requests';
const realSuite = realDatabaseUrl && realRedisUrl ? describe : describe.skip;
// The embedded database runs one query at a time for the whole process: there a long export does
// hold up other queries, which is one reason production runs on PostgreSQL.
const realTitle = realDatabaseUrl && realRedisUrl ? TITLE : `${TITLE} (skipped: needs TEST_DATABASE_URL and TEST_REDIS_URL)`;

realSuite(realTitle, () => {
  let db: TestDatabase;
  let api: Proc;
  let url = '';
  let token = '';
  let eui = '';
  let scratch = '';

  beforeAll(async () => {
    db = await createTestDatabase();
    scratch = mkdtempSync(join(tmpdir(), 'dts-abuse-'));
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    api = startProcess('api', process.execPath, [API_MAIN], {
      ...composeEnvironment('api-1'),
      DATABASE_URL: db.url!,
      REDIS_URL: realRedisUrl!,
      REDIS_PREFIX: `dts-abuse-${randomBytes(4).toString('hex')}`,
      PORT: String(port),
      MIGRATIONS_RUN: 'true',
      LOG_LEVEL: 'warn',
      // The small GETs come from one account: its own limit is not what is measured here.
      RATE_LIMIT_PER_MINUTE: '100000',
    });
    await waitReady(`${url}/health/ready`, api);

    const account = await accountOverHttp(url, 'exporter');
    token = account.token;
    const cookie = account.cookie;
    eui = randomBytes(8).toString('hex').toUpperCase();
    const device = await call(`${url}/user/device/${eui}`, { method: 'POST', headers: { Cookie: cookie }, json: { decoder_ref: 2 } });
    expect(device.status).toBe(201);
    // The history written straight into the table: the reads are what is measured, not ingestion.
    const pg = new Client({ connectionString: db.url! });
    await pg.connect();
    try {
      await pg.query(
        `INSERT INTO uplinks (device_id, received_at, network_ref, port, fcnt, payload, rssi, snr, decoded, valid, temperature, humidity)
         SELECT d.uid, timestamptz '2026-01-01' + g * interval '1 minute', 4, 1, g, '\\x036700e5', -90, 7.5,
                '{"temperature": 22.9, "temperature_3": 22.9}'::jsonb, true, 22.9, 40 + g % 20
         FROM devices d, generate_series(1, $2) g WHERE d.eui = $1`,
        [eui, EXPORT_ROWS],
      );
    } finally {
      await pg.end();
    }
  }, 120_000);

  afterAll(async () => {
    await stopProcesses(api ? [api] : []);
    await db?.drop();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  }, 30_000);

  it('keeps GET /user answering promptly while four reads of the whole history stream (p99 goal 100 ms)', async () => {
    const small = `${url}/user`;
    // Warm-up, then the same schedule with nothing else running: the baseline of this run. Real time:
    // a baseline is a number of seconds of the schedule (about 150 GETs), not a state to wait for.
    await smallGets(small, token, pause(1_000));
    const idle = await smallGets(small, token, pause(3_000));

    const busy = { latencies: [] as number[], failures: [] as string[] };
    const exports: { route: string; status: number; bytes: number; rows: number; ms: number }[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      // Both bulk routes, the raw uplink table and the decoded data, each at the largest limit.
      const reads = Array.from({ length: STREAMS }, async (_, i) => {
        const route = i % 2 === 0 ? 'table' : 'data';
        const file = join(scratch, `${round}-${i}.json`);
        const started = Date.now();
        const res = await curlExport(`${url}/user/device/${route}/${eui}?limit=${EXPORT_ROWS}`, token, file);
        const ms = Date.now() - started;
        const rows = await countMarker(file, route === 'table' ? '{"uplink":' : '"time_stamp":');
        rmSync(file, { force: true });
        exports.push({ route, ...res, rows, ms });
      });
      const during = await smallGets(small, token, Promise.all(reads));
      busy.latencies.push(...during.latencies);
      busy.failures.push(...during.failures);
    }

    expect(exports.map((e) => [e.route, e.status, e.rows])).toEqual(
      expect.arrayContaining(Array.from({ length: STREAMS * ROUNDS }, () => [expect.any(String), 200, EXPORT_ROWS])),
    );
    expect(exports).toHaveLength(STREAMS * ROUNDS);
    expect(idle.failures).toEqual([]);
    expect(busy.failures).toEqual([]);
    const p = (values: number[]) => ({ n: values.length, p50: percentile(values, 50), p99: percentile(values, 99), max: Math.max(...values) });
    const idleStats = p(idle.latencies);
    const busyStats = p(busy.latencies);
    const mb = exports.reduce((sum, e) => sum + e.bytes, 0) / 1024 / 1024;
    process.stdout.write(
      `GET /user every ${SMALL_EVERY_MS} ms: idle p50 ${idleStats.p50} ms p99 ${idleStats.p99} ms (n ${idleStats.n}); during ${ROUNDS}×${STREAMS} exports of ${EXPORT_ROWS} rows ` +
        `(${mb.toFixed(0)} MB, each ${Math.min(...exports.map((e) => e.ms))}–${Math.max(...exports.map((e) => e.ms))} ms) p50 ${busyStats.p50} ms p99 ${busyStats.p99} ms max ${busyStats.max} ms (n ${busyStats.n}); ` +
        `p99 ratio busy/idle ${(busyStats.p99 / idleStats.p99).toFixed(1)}; goal p99 < ${P99_GOAL_MS} ms ${busyStats.p99 < P99_GOAL_MS ? 'met' : 'not met'} in this run\n`,
    );
    expect(busyStats.n).toBeGreaterThan(50);
    expect(busyStats.p50).toBeLessThan(P50_LIMIT_MS);
    expect(busyStats.p99).toBeLessThan(P99_LIMIT_MS);
  }, 180_000);
});
