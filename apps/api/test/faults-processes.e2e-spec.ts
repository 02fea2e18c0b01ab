import { randomBytes } from 'node:crypto';
import { accountOverHttp, call, callTracked, type Answer } from './support/fault-load';
import { eventually, pause } from '@dts/platform';
import { exitedWithin } from './support/processes';
import { type FaultTopology, type Instance, startFaultTopology } from './support/services';
import { realDatabaseUrl, realRedisUrl } from './support/test-database';

/*
 * Fault injection on the service's own processes, with work in flight: the worker killed with
 * SIGKILL in the middle of a batch (a run of commands to a slow network and a large re-decode),
 * and SIGTERM to an api serving long and short requests. The processes are the real ones from
 * dist/ with compose's environment, on a PostgreSQL and a Redis of this suite's own.
 *
 * Only with a real PostgreSQL and Redis (TEST_DATABASE_URL, TEST_REDIS_URL): in embedded mode the
 * worker lives inside the api process. With them, a missing postgres or redis-server binary fails
 * the suite rather than skipping it.
 */

const TITLE = 'faults in the api and worker processes under load';
const suite = realDatabaseUrl && realRedisUrl ? describe : describe.skip;
const title = realDatabaseUrl && realRedisUrl ? TITLE : `${TITLE} (skipped: needs TEST_DATABASE_URL and TEST_REDIS_URL)`;

const HISTORY_ROWS = 30_000;
/** Uplinks per ingest request (the REST route's limit). */
const HISTORY_BATCH = 1_000;
const COMMANDS = 30;
const NETWORK_DELAY_MS = 300;
/** The api's SHUTDOWN_TIMEOUT_MS here (compose's default is 10 s as well). */
const SHUTDOWN_TIMEOUT_MS = 10_000;
/** The api keeps its listener this long after SIGTERM (apps/api/src/common/http/http-drain.ts). */
const LISTEN_GRACE_MS = 500;
const lpp = '036700E5'; // Cayenne LPP: temperature 22.9 °C on channel 3

const newEui = () => randomBytes(8).toString('hex').toUpperCase();

suite(title, () => {
  let top: FaultTopology;
  let api: Instance;
  let cookie = '';
  let networkUid = 0;
  /** A device with HISTORY_ROWS uplinks stored raw (decoder 1), for the re-decode and the long reads. */
  let historyEui = '';

  const json = (method: string, path: string, body?: unknown, base = api.url) => call(`${base}${path}`, { method, headers: { Cookie: cookie }, json: body });
  const device = async (decoderRef: number, withNetwork: boolean) => {
    const eui = newEui();
    const made = await json('POST', `/user/device/${eui}`, { decoder_ref: decoderRef });
    if (made.status !== 201) throw new Error(`device: ${made.status} ${JSON.stringify(made.body)}`);
    if (withNetwork) await json('POST', `/user/device/meta/${eui}`, { network_ref: networkUid });
    return eui;
  };
  const ingestBatch = (base: string, eui: string, from: number, count: number) =>
    call(`${base}/ingest/rest`, {
      method: 'POST',
      headers: { 'X-Ingest-Secret': top.ingestSecret },
      json: Array.from({ length: count }, (_, i) => ({ devEUI: eui, port: 1, payload_hex: lpp, fcnt: from + i, time_stamp_unix: 1_777_000_000 + from + i })),
    });

  beforeAll(async () => {
    const started = Date.now();
    top = await startFaultTopology();
    api = await top.startApi('api-1', { SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS) });
    ({ cookie } = await accountOverHttp(api.url, 'procs'));
    const network = await json('POST', '/user/network', {
      name: 'slow stand-in chirpstack',
      adapter: 'chirpstack',
      base_url: top.network.url,
      api_key: 'faults-key',
    });
    networkUid = (network.body!.data as { uid: number }).uid;
    historyEui = await device(1, false);
    // The history: one batch through the REST ingest, then copied in SQL with later counters and
    // times, row for row what the ingest wrote (every column but the key, the counter, the time and
    // the message id). The re-decode of it is what this suite tests; ingesting all of it over HTTP
    // took 20 of the suite's 60 s.
    const res = await ingestBatch(api.url, historyEui, 0, HISTORY_BATCH);
    if (res.status !== 202) throw new Error(`ingest: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
    const { columns } = (
      await top.query<{ columns: string }>(
        `SELECT string_agg(quote_ident(column_name), ', ') AS columns FROM information_schema.columns
        WHERE table_schema = current_schema() AND table_name = 'uplinks' AND column_name NOT IN ('uid', 'fcnt', 'received_at', 'message_id')`,
      )
    )[0]!;
    await top.query(
      `INSERT INTO uplinks (${columns}, fcnt, received_at)
       SELECT ${columns}, fcnt + k * $2, received_at + k * $2 * interval '1 second'
       FROM uplinks, generate_series(1, $3 - 1) k WHERE device_id = (SELECT uid FROM devices WHERE eui = $1)`,
      [historyEui, HISTORY_BATCH, HISTORY_ROWS / HISTORY_BATCH],
    );
    process.stdout.write(`process-fault topology up with ${HISTORY_ROWS} uplinks stored in ${Date.now() - started} ms\n`);
  }, 180_000);

  afterAll(async () => {
    await top?.close();
  }, 60_000);

  it('worker killed with SIGKILL mid-batch: jobs redelivered to a new worker, each result recorded once, counts exact', async () => {
    const first = await top.startWorker('worker-1');
    top.network.delayMs = NETWORK_DELAY_MS;
    const callsBefore = top.network.calls.length;
    const commandEui = await device(2, true);
    const payloads = Array.from({ length: COMMANDS }, (_, i) => `c0ffee${i.toString(16).padStart(4, '0')}`);
    const uids: number[] = [];
    for (const payload_hex of payloads) {
      const made = await json('POST', `/user/device/command/${commandEui}`, { port: 10, payload_hex });
      expect(made.status).toBe(201);
      uids.push((made.body!.data as { uid: number }).uid);
    }
    const historyUid = (await top.query<{ uid: number }>('SELECT uid FROM devices WHERE eui = $1', [historyEui]))[0]!.uid;
    const decodedCount = async () =>
      (await top.query<{ n: number }>('SELECT count(*)::int AS n FROM uplinks WHERE device_id = $1 AND temperature IS NOT NULL', [historyUid]))[0]!.n;
    expect(await decodedCount()).toBe(0);
    // Raw → Cayenne LPP: the worker decodes the whole history again, a thousand rows per statement.
    expect((await json('POST', `/user/device/meta/${historyEui}`, { decoder_ref: 2 })).status).toBe(200);

    // Kill it once the re-decode has written part of the history, with commands still queued.
    let decodedAtKill = 0;
    await eventually(async () => (decodedAtKill = await decodedCount()) > 0, {
      what: 'the re-decode to write part of the history',
      timeoutMs: 30_000,
      intervalMs: 10,
    }).catch(
      () => undefined, // the expectations below say so
    );
    first.proc.child.kill('SIGKILL');
    await first.proc.exited;
    const killedAt = Date.now();
    const sentAtKill = top.network.calls.length - callsBefore;
    expect(decodedAtKill).toBeGreaterThan(0);
    expect(decodedAtKill).toBeLessThan(HISTORY_ROWS);
    expect(sentAtKill).toBeLessThan(COMMANDS);
    const scheduledAtKill = (await top.query<{ n: number }>(`SELECT count(*)::int AS n FROM commands WHERE uid = ANY($1) AND status = 'Scheduled'`, [uids]))[0]!
      .n;

    const second = await top.startWorker('worker-2');
    let rows: { uid: number; status: string; network_id: string | null }[] = [];
    let decoded = 0;
    await eventually(
      async () => {
        rows = await top.query(`SELECT uid, status, network_id FROM commands WHERE uid = ANY($1) ORDER BY uid`, [uids]);
        decoded = await decodedCount();
        return rows.every((r) => r.status === 'Scheduled') && decoded === HISTORY_ROWS;
      },
      { what: 'the second worker to finish the commands and the re-decode', timeoutMs: 90_000, intervalMs: 250 },
    ).catch(() => undefined); // the expectations below say what is left
    const recoveredIn = Date.now() - killedAt;
    top.network.delayMs = 0;

    // Every command Scheduled once, under the queue item id of a hand-off the network answered.
    expect(rows.map((r) => [r.uid, r.status])).toEqual(uids.map((uid) => [uid, 'Scheduled']));
    const calls = top.network.calls.slice(callsBefore).map((c) => Buffer.from(c.data, 'base64').toString('hex'));
    const perPayload = new Map<string, number>();
    for (const p of calls) perPayload.set(p, (perPayload.get(p) ?? 0) + 1);
    expect(payloads.filter((p) => !perPayload.has(p))).toEqual([]);
    // At least once to the network: twice only for the hand-off in flight when the worker died.
    const twice = payloads.filter((p) => perPayload.get(p)! > 1);
    expect(twice.length).toBeLessThanOrEqual(1);
    expect(calls.length).toBe(COMMANDS + twice.length);
    // The re-decode, redelivered, covers every uplink exactly once: the same rows, all decoded.
    const history = await top.query<{ n: number; decoded: number; distinct_fcnt: number; temps: number }>(
      `SELECT count(*)::int AS n, count(*) FILTER (WHERE temperature = 22.9)::int AS decoded, count(DISTINCT fcnt)::int AS distinct_fcnt, count(DISTINCT temperature)::int AS temps FROM uplinks WHERE device_id = $1`,
      [historyUid],
    );
    expect(history).toEqual([{ n: HISTORY_ROWS, decoded: HISTORY_ROWS, distinct_fcnt: HISTORY_ROWS, temps: 1 }]);
    // Nothing left queued or failed behind (BullMQ's stalled-job check handed both jobs over).
    const health = await call(`${second.url}/health/ready`);
    expect(health.status).toBe(200);
    second.proc.child.kill('SIGTERM');
    expect(await exitedWithin(second.proc, 15_000)).toBe(true);
    process.stdout.write(
      `worker SIGKILLed with ${decodedAtKill}/${HISTORY_ROWS} uplinks re-decoded and ${sentAtKill}/${COMMANDS} commands handed to a ${NETWORK_DELAY_MS} ms network (${scheduledAtKill} recorded Scheduled); ` +
        `a new worker finished both ${recoveredIn} ms later: ${COMMANDS} commands Scheduled once each, network calls ${calls.length} (${twice.length} repeated: the hand-off in flight at the kill), ${HISTORY_ROWS} uplinks decoded once each\n`,
    );
  }, 150_000);

  it('SIGTERM to an api under load: in-flight requests finish with full answers, no 5xx, exit 0 within SHUTDOWN_TIMEOUT_MS, new connections refused', async () => {
    const second = await top.startApi('api-2', { SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS) });
    const ingestEui = await device(2, false);
    type Flight = { what: string; sent: ReturnType<typeof callTracked>; check: (a: Answer) => string | null };
    const flights: Flight[] = [];
    const full = (rows: number) => (a: Answer) =>
      a.status === 200 && Array.isArray(a.body?.data) && (a.body!.data as unknown[]).length === rows
        ? null
        : `status ${a.status}, ${Array.isArray(a.body?.data) ? (a.body!.data as unknown[]).length : 'no'} rows`;
    const accepted = (n: number) => (a: Answer) =>
      a.status === 202 && (a.body?.data as { accepted: number })?.accepted === n ? null : `status ${a.status} ${JSON.stringify(a.body).slice(0, 200)}`;
    const ok = (a: Answer & { error?: string }) => (a.status === 200 ? null : `status ${a.status} ${a.error ?? ''}`);
    // Long reads: the whole 30,000-row history, streamed, four at once.
    for (let i = 0; i < 4; i++)
      flights.push({
        what: 'GET /user/device/table (30k rows)',
        sent: callTracked(`${second.url}/user/device/table/${historyEui}`, { headers: { Cookie: cookie } }),
        check: full(HISTORY_ROWS),
      });
    // Ingest batches and short reads.
    for (let i = 0; i < 6; i++) {
      const batch = Array.from({ length: 500 }, (_, j) => ({
        devEUI: ingestEui,
        port: 1,
        payload_hex: lpp,
        fcnt: i * 500 + j,
        time_stamp_unix: 1_777_000_000 + i * 500 + j,
      }));
      flights.push({
        what: 'POST /ingest/rest (500)',
        sent: callTracked(`${second.url}/ingest/rest`, { method: 'POST', headers: { 'X-Ingest-Secret': top.ingestSecret }, json: batch }),
        check: accepted(500),
      });
    }
    for (let i = 0; i < 6; i++) flights.push({ what: 'GET /user', sent: callTracked(`${second.url}/user`, { headers: { Cookie: cookie } }), check: ok });
    // Every request has reached the server's socket before the signal (the test process is busy
    // reading the streams, so a fixed pause would not say so); the server may not have read them yet.
    await Promise.all(flights.map((f) => f.sent.written));
    // Real time by nature: a moment for the server to read some of them, so that the signal finds
    // requests in progress (either way each must be answered).
    await pause(50);
    const signalledAt = Date.now();
    second.proc.child.kill('SIGTERM');
    // Real time by nature: the listener stays open for the grace (a timer), then closes.
    await pause(LISTEN_GRACE_MS + 500);
    // After the signal and its grace the listener is closed: a new connection is refused, not answered
    // 5xx. The grace's timer may fire late on a loaded machine: a connection it still took is answered.
    let late = await call(`${second.url}/version`, { headers: { Connection: 'close' } });
    const tookLate: number[] = [];
    await eventually(
      async () => {
        if (late.status === 0) return true;
        tookLate.push(late.status);
        late = await call(`${second.url}/version`, { headers: { Connection: 'close' } });
        return late.status === 0;
      },
      { what: 'the listener to close', timeoutMs: 3_000, intervalMs: 200 },
    ).catch(() => undefined); // the expectation below says what it answered
    expect(tookLate.filter((status) => status >= 500)).toEqual([]);
    const exitedIn = (await exitedWithin(second.proc, SHUTDOWN_TIMEOUT_MS + 2_000)) ? Date.now() - signalledAt : -1;
    const answers = await Promise.all(flights.map(async (f) => ({ what: f.what, problem: f.check(await f.sent.answer), ms: (await f.sent.answer).ms })));

    expect(answers.filter((a) => a.problem)).toEqual([]);
    expect({ status: late.status, refused: /ECONNREFUSED|fetch failed/.test(late.error ?? '') }).toEqual({ status: 0, refused: true });
    expect(exitedIn).toBeGreaterThan(0);
    expect(exitedIn).toBeLessThanOrEqual(SHUTDOWN_TIMEOUT_MS);
    expect(await second.proc.exited).toBe(0);
    const stored = await top.query<{ n: number }>(
      'SELECT count(DISTINCT fcnt)::int AS n FROM uplinks u JOIN devices d ON d.uid = u.device_id WHERE d.eui = $1',
      [ingestEui],
    );
    expect(stored).toEqual([{ n: 3_000 }]);
    // The other instance never noticed.
    expect((await call(`${api.url}/health/ready`)).status).toBe(200);
    const slowest = Math.max(...answers.map((a) => a.ms));
    process.stdout.write(
      `api SIGTERMed with ${flights.length} requests in flight (4 streams of ${HISTORY_ROWS} rows, 6 ingest batches of 500, 6 GET /user): all finished complete, no 5xx, slowest ${slowest} ms; new connection after the signal refused; exited 0 after ${exitedIn} ms (SHUTDOWN_TIMEOUT_MS ${SHUTDOWN_TIMEOUT_MS})\n`,
    );
  }, 60_000);
});
