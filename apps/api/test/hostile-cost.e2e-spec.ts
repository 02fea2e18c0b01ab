import { randomBytes } from 'node:crypto';
import { connect, type Socket } from 'node:net';
import { Client } from 'pg';
import { accountOverHttp, call } from './support/fault-load';
import { judgedProbe, probeDuring, type ProbeResult, WITHIN_BOUNDS } from './support/latency-probe';
import { eventually, freePort, pause } from '@dts/platform';
import { API_MAIN, composeEnvironment, composeIngestSecret, type Proc, startProcess, stopProcesses, waitReady } from './support/processes';
import { createTestDatabase, realDatabaseUrl, realRedisUrl, type TestDatabase } from './support/test-database';

/*
 * The cost of hostile input (issue #16): while each attack runs against the api — a process of its
 * own from dist/, on PostgreSQL and Redis, with the worker in process as the embedded mode runs
 * it — a probe in another process asks GET /health/live every 50 ms, and the attack fails when
 * its answers pass the bounds below. Each attack also checks that the attacker got what the service
 * promises (refusals, invalid uplinks with their reason) and that other accounts were served.
 * Only in the PostgreSQL + Redis pass: the jsonb limits the output caps guard against are
 * PostgreSQL's, and nothing here depends on the database otherwise, so one pass is enough.
 */
const ALLOCATING_ATTACK = 'looping, allocating and native-work codecs, 4 × 1,000 uplinks';
const LOOP = 'function decodeUplink(input) { while (true) {} }';
const ALLOCATE = 'function decodeUplink(input) { var a = []; while (true) { a.push(new Array(100000).fill(input.fPort)); } }';
// Native work between two of QuickJS's interrupt polls (every 10,000 bytecode steps): never
// interrupted from inside, stopped by the pool's watchdog.
const NATIVE = 'function decodeUplink(input) { while (true) { new Array(1000000).fill(input.fPort); } }';
const HUGE = "function decodeUplink(input) { return { data: { s: 'x'.repeat(4000000) } }; }";
const DEEP = 'function decodeUplink(input) { var o = {}, c = o; for (var i = 0; i < 5000; i++) { c.a = {}; c = c.a; } return { data: o }; }';
const GOOD = 'function decodeUplink(input) { return { data: { first: input.bytes[0] } }; }';
const TITLE = 'the cost of hostile input lands on the attacker';
const suite = realDatabaseUrl && realRedisUrl ? describe : describe.skip;
const title = realDatabaseUrl && realRedisUrl ? TITLE : `${TITLE} (skipped: needs TEST_DATABASE_URL and TEST_REDIS_URL)`;
const newEui = () => randomBytes(8).toString('hex').toUpperCase();

suite(title, () => {
  let db: TestDatabase;
  let api: Proc;
  let url = '';
  let pg: Client;
  const results: Record<string, ProbeResult> = {};
  const ingestSecret = composeIngestSecret();

  /** Whether every probe answer of the attack came back, within the bounds: checked last in each test. */
  const expectWithinBound = (name: string) => expect(judgedProbe(name, results[name]!)).toEqual(WITHIN_BOUNDS(name));

  afterEach(() => {
    for (const name of pending.splice(0)) expectWithinBound(name);
  });
  const pending: string[] = [];

  /** Runs the attack under the probe; the test fails (after its own checks) when its probe answers pass the bounds. */
  async function underProbe<T>(name: string, attack: () => Promise<T>): Promise<T> {
    const { outcome, probe } = await probeDuring(`${url}/health/live`, name, attack);
    results[name] = probe;
    pending.push(name);
    return outcome;
  }

  const as = (token: string) => ({ Authorization: `Bearer ${token}` });
  async function codecDevices(token: string, script: string, n: number): Promise<string[]> {
    const codec = await call(`${url}/user/codec`, { method: 'POST', headers: as(token), json: { name: `c-${randomBytes(3).toString('hex')}`, script } });
    expect(codec.status).toBe(201);
    const uid = (codec.body!.data as { uid: number }).uid;
    const euis = Array.from({ length: n }, newEui);
    for (const eui of euis)
      expect((await call(`${url}/user/device/${eui}`, { method: 'POST', headers: as(token), json: { decoder_ref: uid } })).status).toBe(201);
    return euis;
  }
  const batch = (euis: string[], n: number, base = 0) =>
    Array.from({ length: n }, (_, i) => ({
      devEUI: euis[i % euis.length],
      port: 1,
      payload_hex: '0102',
      fcnt: base + i,
      time_stamp_unix: 1_700_000_000 + base + i,
    }));
  const stored = async (euis: string[]) =>
    (
      await pg.query<{ valid: boolean; decode_error: string | null; n: number }>(
        `SELECT u.valid, array_to_string(u.payload_errors, '; ') AS decode_error, count(*)::int AS n FROM uplinks u JOIN devices d ON d.uid = u.device_id WHERE d.eui = ANY($1) GROUP BY 1, 2`,
        [euis],
      )
    ).rows;

  /** The api's STREAM_STALL_TIMEOUT_MS: an export no byte of which is taken for this long is ended. */
  const STREAM_STALL_MS = 3_000;

  beforeAll(async () => {
    db = await createTestDatabase();
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    api = startProcess('api', process.execPath, [API_MAIN], {
      ...composeEnvironment('api-1'),
      DATABASE_URL: db.url!,
      REDIS_URL: realRedisUrl!,
      REDIS_PREFIX: `dts-hostile-${randomBytes(4).toString('hex')}`,
      PORT: String(port),
      PUBLIC_BASE_URL: url,
      MIGRATIONS_RUN: 'true',
      // The embedded mode's topology: the worker (re-decoding) in the api process.
      WORKER_IN_PROCESS: 'true',
      LOG_LEVEL: 'warn',
      RATE_LIMIT_PER_MINUTE: '1000000',
      AUTH_RATE_LIMIT_PER_MINUTE: '1000000',
      STREAM_STALL_TIMEOUT_MS: String(STREAM_STALL_MS),
    });
    await waitReady(`${url}/health/ready`, api);
    pg = new Client({ connectionString: db.url! });
    await pg.connect();
  }, 120_000);

  afterAll(async () => {
    await pg?.end();
    if (api) await stopProcesses([api]);
    await db?.drop();
    process.stdout.write(`hostile cost summary: ${JSON.stringify(results)}\n`);
  });

  it('looping, allocating and native-work codecs over full batches: the rest of the attacker’s uplinks are stored invalid, others decode', async () => {
    const attacker = await accountOverHttp(url, 'looper');
    const bystander = await accountOverHttp(url, 'bystander');
    const loops = await codecDevices(attacker.token, LOOP, 5);
    const allocs = await codecDevices(attacker.token, ALLOCATE, 5);
    const natives = await codecDevices(attacker.token, NATIVE, 5);
    const good = await codecDevices(bystander.token, GOOD, 2);
    const answers = await underProbe(ALLOCATING_ATTACK, () =>
      Promise.all([
        call(`${url}/ingest/rest`, { method: 'POST', headers: as(attacker.token), json: batch(loops, 1_000) }),
        call(`${url}/ingest/rest`, { method: 'POST', headers: as(attacker.token), json: batch(allocs, 1_000, 5_000) }),
        call(`${url}/ingest/rest`, { method: 'POST', headers: as(attacker.token), json: batch(natives, 1_000, 10_000) }),
        call(`${url}/ingest/rest`, { method: 'POST', headers: as(bystander.token), json: batch(good, 1_000) }),
      ]),
    );
    expect(answers.map((a) => [a.status, (a.body!.data as { accepted: number }).accepted])).toEqual([
      [202, 1_000],
      [202, 1_000],
      [202, 1_000],
      [202, 1_000],
    ]);
    const mine = await stored([...loops, ...allocs, ...natives]);
    expect(mine.filter((r) => r.valid || !/^codec/.test(r.decode_error ?? ''))).toEqual([]);
    expect(mine.filter((r) => /CPU budget/.test(r.decode_error ?? '')).reduce((n, r) => n + r.n, 0)).toBeGreaterThan(2_500);
    expect(await stored(good)).toEqual([{ valid: true, decode_error: null, n: 1_000 }]);
  });

  it('huge and deep codec output in a platform-secret batch: those uplinks invalid, every other item stored, never a 500', async () => {
    const attacker = await accountOverHttp(url, 'hugeout');
    const bystander = await accountOverHttp(url, 'neighbour');
    const huge = await codecDevices(attacker.token, HUGE, 2);
    const deep = await codecDevices(attacker.token, DEEP, 2);
    const good = await codecDevices(bystander.token, GOOD, 2);
    const items = Array.from({ length: 999 }, (_, i) => ({
      devEUI: [huge, deep, good][i % 3]![i % 2],
      port: 1,
      payload_hex: '07',
      fcnt: i,
      time_stamp_unix: 1_700_000_000 + i,
    }));
    const answer = await underProbe('huge and deep codec output, 999 uplinks of two accounts', () =>
      call(`${url}/ingest/rest`, { method: 'POST', headers: { 'X-Ingest-Secret': ingestSecret }, json: items }),
    );
    expect([answer.status, (answer.body!.data as { accepted: number }).accepted]).toEqual([202, 999]);
    expect((await stored(huge)).every((r) => !r.valid && /exceeds 64 KiB|CPU budget|memory/.test(r.decode_error ?? ''))).toBe(true);
    expect((await stored(deep)).every((r) => !r.valid && /deeper than 32|stack|CPU budget/i.test(r.decode_error ?? ''))).toBe(true);
    expect(await stored(good)).toEqual([{ valid: true, decode_error: null, n: 333 }]);
  });

  it('codecs whose top level loops: creation refused on a codec thread, 20 at once', async () => {
    const attacker = await accountOverHttp(url, 'creator');
    const answers = await underProbe('20 codec creations that loop at load', () =>
      Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          call(`${url}/user/codec`, { method: 'POST', headers: as(attacker.token), json: { name: `loop${i}`, script: 'while (true) {}' } }),
        ),
      ),
    );
    expect(answers.map((a) => `${a.status} ${(a.body?.errors as { field?: string }[] | undefined)?.[0]?.field}`)).toEqual(Array(20).fill('400 script'));
  });

  it('the codec try route as an attack: 60 looping and allocating 512 KiB drafts at once from one account, refused past its 2 trials and its budget, others served', async () => {
    const attacker = await accountOverHttp(url, 'trier');
    const bystander = await accountOverHttp(url, 'trybystander');
    // Each draft is a 512 KiB script (the longest load) whose decodeUplink loops or allocates.
    const padding = '// padding of a large vendor codec\n'.repeat(15_000);
    // Serialised once, as an attacker would: 60 serialisations of 512 KiB here would hold this
    // process, and the probe's answers with it, for a second.
    const bodies = [LOOP, ALLOCATE].map((script) => JSON.stringify({ script: `${script}\n${padding}`.slice(0, 524_288), fPort: 1, payload_hex: '01' }));
    const answers = await underProbe('60 concurrent 512 KiB looping and allocating drafts on the try route', () =>
      Promise.all([
        ...Array.from({ length: 60 }, (_, i) =>
          call(`${url}/user/codec/try`, { method: 'POST', headers: { ...as(attacker.token), 'Content-Type': 'application/json' }, body: bodies[i % 2] }),
        ),
        call(`${url}/user/codec/try`, { method: 'POST', headers: as(bystander.token), json: { script: GOOD, fPort: 1, payload_hex: '07' } }),
      ]),
    );
    const theirs = answers.pop()!;
    expect([theirs.status, (theirs.body!.data as { decoded: { valid: boolean } }).decoded.valid]).toEqual([200, true]);
    const statuses = answers.map((a) => a.status);
    // At most 2 trials of an account run at once: the rest of a burst is refused at once (429), never queued.
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(1);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(50);
    expect(statuses.filter((s) => s !== 200 && s !== 429)).toEqual([]);
    // Each trial that ran failed: the call stopped (decoded invalid), or the load did (a problem, nothing decoded).
    for (const a of answers.filter((x) => x.status === 200)) {
      const data = a.body!.data as { problem: string | null; decoded: { valid: boolean } | null };
      expect(data.problem !== null || data.decoded?.valid === false).toBe(true);
    }
  });

  it('re-decoding 20,000 stored uplinks with a looping codec: the job runs on the codec threads within the budget', async () => {
    const attacker = await accountOverHttp(url, 'redecoder');
    const [eui] = await codecDevices(attacker.token, GOOD, 1);
    await pg.query(
      `INSERT INTO uplinks (device_id, received_at, network_ref, port, fcnt, payload, decoded, valid)
       SELECT d.uid, timestamptz '2026-01-01' + g * interval '1 minute', 4, 1, g, '\\x0102', '{}'::jsonb, true FROM devices d, generate_series(1, 20000) g WHERE d.eui = $1`,
      [eui],
    );
    const loop = await call(`${url}/user/codec`, { method: 'POST', headers: as(attacker.token), json: { name: 'loop-later', script: LOOP } });
    const left = async () =>
      (await pg.query<{ n: number }>(`SELECT count(*)::int AS n FROM uplinks u JOIN devices d ON d.uid = u.device_id WHERE d.eui = $1 AND u.valid`, [eui]))
        .rows[0]!.n;
    await underProbe('re-decoding 20,000 uplinks with a looping codec', async () => {
      expect(
        (
          await call(`${url}/user/device/meta/${eui}`, {
            method: 'POST',
            headers: as(attacker.token),
            json: { decoder_ref: (loop.body!.data as { uid: number }).uid },
          })
        ).status,
      ).toBe(200);
      await eventually(async () => (await left()) === 0, { what: 'the re-decode to end', timeoutMs: 60_000, intervalMs: 200 }).catch(() => undefined);
    });
    expect(await left()).toBe(0);
  });

  it('wide and deep JSON on the public routes: refused before any DTO sees them', async () => {
    const wide = JSON.stringify(Object.fromEntries(Array.from({ length: 60_000 }, (_, i) => [`m${i}`, 1])));
    const deep = `${'['.repeat(200_000)}${']'.repeat(200_000)}`;
    const answers = await underProbe('wide (60,000 members) and deep (200,000 levels) bodies, 24 requests', () =>
      Promise.all(
        ['/auth/login', '/auth/check', '/auth/restore', '/auth/register'].flatMap((path) =>
          [wide, wide, wide, deep, deep, deep].map((body) => call(`${url}${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body })),
        ),
      ),
    );
    expect(new Set(answers.map((a) => `${a.status} ${(a.body?.errors as { code: string }[] | undefined)?.[0]?.code}`))).toEqual(
      new Set(['400 VALIDATION_FAILED']),
    );
  });

  it('slow readers of exports: capped per account (429 with Retry-After), the stalled ones ended', async () => {
    const reader = await accountOverHttp(url, 'slowreader');
    const eui = newEui();
    expect((await call(`${url}/user/device/${eui}`, { method: 'POST', headers: as(reader.token), json: {} })).status).toBe(201);
    await pg.query(
      `INSERT INTO uplinks (device_id, received_at, network_ref, port, fcnt, payload, decoded, valid, temperature)
       SELECT d.uid, timestamptz '2026-01-01' + g * interval '1 minute', 4, 1, g, '\\x0102', '{"t": 1}'::jsonb, true, 21.5
       FROM devices d, generate_series(1, 200000) g WHERE d.eui = $1`,
      [eui],
    );
    // The seeding's own after-work done before the probe starts, as the benchmarks do before they
    // time anything: left to autovacuum (which wakes within a minute of 200,000 new rows) and the
    // next checkpoint, it landed in the attack's window or not by chance. A CI run on 2026-11-28
    // measured one stall of about 600 ms here (p99 485 ms) where the same attack measures 50–75 ms.
    await pg.query('VACUUM (ANALYZE) uplinks');
    await pg.query('CHECKPOINT');
    const { hostname, port } = new URL(url);
    const sockets: { socket: Socket; head: () => string; tail: () => string; read: () => void; closed: Promise<number> }[] = [];
    await underProbe('20 readers of a 200,000-row export that never read', async () => {
      for (let i = 0; i < 20; i++) {
        const socket = connect(Number(port), hostname);
        let head = '';
        let tail = '';
        let reading = false;
        socket.on('data', (d: Buffer) => {
          if (head.length < 512) head += d.toString('latin1');
          tail = (tail + d.toString('latin1')).slice(-16);
          // Read the first bytes, then stop: the kernel buffers fill and the api's response stalls.
          if (!reading) socket.pause();
        });
        socket.on('error', () => undefined);
        const opened = Date.now();
        const closed = new Promise<number>((resolve) => socket.once('close', () => resolve(Date.now() - opened)));
        socket.write(`GET /user/device/table/${eui}?format=csv HTTP/1.1\r\nHost: dts\r\nAuthorization: Bearer ${reader.token}\r\n\r\n`);
        const read = () => {
          reading = true;
          socket.resume();
        };
        sockets.push({ socket, head: () => head, tail: () => tail, read, closed });
      }
      // Every reader has its answer's head (admitted or refused) before the check below.
      await eventually(() => sockets.every((s) => s.head().startsWith('HTTP/1.1')), { what: 'every reader’s answer head', timeoutMs: 10_000 }).catch(
        () => undefined, // the expectations below judge what came
      );
      // Meanwhile another account reads its own data.
      const other = await accountOverHttp(url, 'otherreader');
      expect((await call(`${url}/user`, { headers: as(other.token) })).status).toBe(200);
      // The api renders until the sockets' kernel buffers are full (a few MB each, well under a
      // second), then finds no byte taken for STREAM_STALL_TIMEOUT_MS and ends the responses. A
      // paused socket only sees that once it reads what is buffered: the readers read after. Real
      // time by nature: the probe measures the others' latency over this window (the render, the
      // stall and its end, three stall timeouts), and the stall is not observable from outside
      // until the readers read; the bound below waits for the ends themselves.
      await pause(3 * STREAM_STALL_MS);
    });
    const admitted = sockets.filter((s) => s.head().startsWith('HTTP/1.1 200'));
    for (const s of admitted) s.read();
    // A bound, not a sleep: each settles when its socket closes, or as -1 if it has not within 15 s.
    const cut = await Promise.all(admitted.map((s) => Promise.race([s.closed, pause(15_000).then(() => -1)])));
    // Closed by the api, mid-body: a chunked response that had finished would end with 0 CRLF CRLF and stay open.
    expect(cut.every((ms) => ms > 0)).toBe(true);
    expect(admitted.filter((s) => s.tail().endsWith('0\r\n\r\n'))).toHaveLength(0);
    const statuses = sockets.map((s) => s.head().slice(9, 12));
    expect(statuses.filter((s) => s === '200')).toHaveLength(4);
    expect(statuses.filter((s) => s === '429')).toHaveLength(16);
    expect(sockets.find((s) => s.head().startsWith('HTTP/1.1 429'))!.head()).toMatch(/Retry-After: \d+/i);
    for (const s of sockets) s.socket.destroy();
  });

  it('a flood of 2,000 live stream opens from one account, 40 at a time: all but its cap refused with 429, others served without a 503', async () => {
    const flooder = await accountOverHttp(url, 'flooder');
    const other = await accountOverHttp(url, 'calm');
    const eui = newEui();
    expect((await call(`${url}/user/device/${eui}`, { method: 'POST', headers: as(flooder.token), json: {} })).status).toBe(201);
    const controllers: AbortController[] = [];
    // Held until the end: an unread response the client drops would be closed by its garbage
    // collector, freeing a slot the attacker means to hold.
    const held: Response[] = [];
    const open = async () => {
      const controller = new AbortController();
      controllers.push(controller);
      try {
        const res = await fetch(`${url}/user/device/live/${eui}`, { headers: as(flooder.token), signal: controller.signal });
        held.push(res);
        return res.status;
      } catch {
        return 0;
      }
    };
    const [statuses, theirs] = await underProbe('2,000 live stream opens from one account', async () => {
      const all: number[] = [];
      const calm: number[] = [];
      // 40 in flight at a time: one client address as the load balancer lets it (64 in progress).
      for (let round = 0; round < 50; round++) {
        all.push(...(await Promise.all(Array.from({ length: 40 }, open))));
        if (round % 5 === 0) calm.push((await call(`${url}/user`, { headers: as(other.token) })).status);
      }
      return [all, calm] as const;
    });
    expect(statuses.filter((s) => s === 200)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(1_990);
    expect(theirs).toEqual(Array(10).fill(200));
    expect(held).toHaveLength(2_000);
    for (const c of controllers) c.abort();
  });
});
