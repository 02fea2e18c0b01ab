import { eventually, pause } from '@dts/platform';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createReadStream, mkdtempSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { accountWithCredentials } from './support/accounts';
import { accountOverHttp, call } from './support/fault-load';
import { startTestService, type TestService } from './support/harness';
import { freePort } from './support/ports';
import { API_MAIN, composeEnvironment, type Proc, startProcess, stopProcesses, waitReady } from './support/processes';
import { createTestDatabase, realDatabaseUrl, realRedisUrl, type TestDatabase } from './support/test-database';

/*
 * Abuse limits (issue #9) at the api itself; the load balancer's own limits (connections per
 * address, nginx's timeouts) are in deployment.e2e-spec.ts, and login brute force across
 * instances there and in multi-instance.e2e-spec.ts.
 *
 * - Slow-header and slow-body clients (slowloris) are cut off by the server's timeouts, and while
 *   they hang on, everybody else is served.
 * - The largest legal history export does not starve small requests: a small GET keeps answering
 *   while four 100,000-row reads stream from the same api process (goal: p99 under 100 ms).
 */

const HEADERS_TIMEOUT_MS = 2_000;
const REQUEST_TIMEOUT_MS = 4_000;
/** Node checks the timeouts once a second: a cut comes up to a second late, more on a loaded machine. */
const CHECK_SLACK_MS = 2_500;

/** A raw connection, to send a request as slowly as an attacker would. */
async function rawConnection(url: string): Promise<{ socket: Socket; received: () => string; closedAfter: Promise<number> }> {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  let received = '';
  socket.on('data', (d: Buffer) => (received += d.toString('latin1')));
  socket.on('error', () => undefined);
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  const opened = Date.now();
  const closedAfter = new Promise<number>((resolve) => socket.once('close', () => resolve(Date.now() - opened)));
  return { socket, received: () => received, closedAfter };
}

/**
 * Writes `parts` one every `everyMs` until they run out or the server closes the connection; `onSent`
 * hears the count so far. The pause is the slow client itself: its pace is what the test is about.
 */
async function trickle(socket: Socket, parts: string[], everyMs: number, onSent: (sent: number) => void = () => undefined): Promise<number> {
  let sent = 0;
  for (const part of parts) {
    if (socket.destroyed || socket.writableEnded) break;
    socket.write(part);
    onSent(++sent);
    await pause(everyMs);
  }
  return sent;
}

describe('slow clients are cut off by the server’s timeouts', () => {
  let svc: TestService;

  beforeAll(async () => {
    svc = await startTestService({ env: { HTTP_HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS), HTTP_REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS) } });
  }, 60_000);
  afterAll(() => svc?.close());

  it('closes a connection whose headers trickle in (408), and serves others meanwhile', async () => {
    const slow = await rawConnection(svc.url);
    // A header line every 300 ms, never the blank line that ends them: 40 lines would take 12 s.
    const lines = ['GET /version HTTP/1.1\r\n', 'Host: dts\r\n', ...Array.from({ length: 40 }, (_, i) => `X-Slow-${i}: ${i}\r\n`)];
    let sentSoFar = 0;
    const sending = trickle(slow.socket, lines, 300, (n) => (sentSoFar = n));
    // Others are served while the slow client is mid-headers: once it has sent a few lines.
    await eventually(() => sentSoFar >= 3, { what: 'the slow client to have sent three header lines' });
    expect((await call(`${svc.url}/version`)).status).toBe(200);
    const closedAfter = await slow.closedAfter;
    const sent = await sending;
    process.stdout.write(
      `slow headers: 408 and closed after ${closedAfter} ms (HTTP_HEADERS_TIMEOUT_MS ${HEADERS_TIMEOUT_MS}), ${sent} of ${lines.length} header lines sent\n`,
    );
    expect(slow.received()).toMatch(/^HTTP\/1\.1 408 /);
    expect(closedAfter).toBeGreaterThanOrEqual(HEADERS_TIMEOUT_MS - 100);
    expect(closedAfter).toBeLessThan(HEADERS_TIMEOUT_MS + CHECK_SLACK_MS);
    expect(sent).toBeLessThan(lines.length);
  });

  it('holds 200 slowloris connections without refusing anyone, and drops them all at the timeout', async () => {
    const held = await Promise.all(Array.from({ length: 200 }, () => rawConnection(svc.url)));
    for (const c of held) c.socket.write('GET /version HTTP/1.1\r\nHost: dts\r\n');
    const answers = await Promise.all(Array.from({ length: 20 }, () => call(`${svc.url}/version`)));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    const closed = await Promise.all(held.map((c) => c.closedAfter));
    process.stdout.write(
      `slowloris: 200 held, 20 others answered ${answers.map((a) => a.ms).sort((a, b) => a - b)[19]} ms at worst, all 200 closed by ${Math.max(...closed)} ms\n`,
    );
    expect(Math.max(...closed)).toBeLessThan(HEADERS_TIMEOUT_MS + CHECK_SLACK_MS);
  });

  it('closes a connection whose body trickles in (408), storing nothing', async () => {
    const username = `slowbody_${randomBytes(3).toString('hex')}`;
    const body = JSON.stringify({ username, email: `${username}@example.org`, password: 'a slow but valid password' });
    const slow = await rawConnection(svc.url);
    slow.socket.write(`POST /auth/register HTTP/1.1\r\nHost: dts\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`);
    // The headers arrive at once; the body a byte every 250 ms would take far past the timeout.
    const sent = await trickle(slow.socket, [...body.slice(0, -1)], 250);
    const closedAfter = await slow.closedAfter;
    process.stdout.write(
      `slow body: 408 and closed after ${closedAfter} ms (HTTP_REQUEST_TIMEOUT_MS ${REQUEST_TIMEOUT_MS}), ${sent} of ${body.length} bytes sent\n`,
    );
    expect(slow.received()).toMatch(/^HTTP\/1\.1 408 /);
    expect(closedAfter).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - 100);
    expect(closedAfter).toBeLessThan(REQUEST_TIMEOUT_MS + CHECK_SLACK_MS);
    expect(sent).toBeLessThan(body.length - 1);
    // The account was never created: logging in with it fails.
    const login = await call(`${svc.url}/auth/login`, { method: 'POST', json: { username, password: 'a slow but valid password' } });
    expect(login.status).toBe(401);
  });

  it('lets a slow but steady request finish inside the limits', async () => {
    const { appToken } = await accountWithCredentials(svc, 'steady');
    const body = JSON.stringify({ label: 'steady' });
    const eui = randomBytes(8).toString('hex').toUpperCase();
    const slow = await rawConnection(svc.url);
    slow.socket.write(
      `POST /user/device/${eui} HTTP/1.1\r\nHost: dts\r\nAuthorization: Bearer ${appToken}\r\nContent-Type: application/json\r\nConnection: close\r\n`,
    );
    // Real time is the point: the headers end half-way through their limit, and the body takes the
    // rest of the request's limit in two halves, slow but inside both bounds.
    await pause(HEADERS_TIMEOUT_MS / 2);
    slow.socket.write(`Content-Length: ${body.length}\r\n\r\n`);
    await trickle(slow.socket, [body.slice(0, 5), body.slice(5)], REQUEST_TIMEOUT_MS / 4);
    await slow.closedAfter;
    expect(slow.received()).toMatch(/^HTTP\/1\.1 201 /);
  });
});

// ---- big exports against small requests

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
