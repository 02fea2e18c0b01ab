// The load generator's pacing is real time on purpose: a steady rate of requests (and a client's
// 100 ms between retries) while a fault happens, not a wait for a state.
import { pause as sleep } from '@dts/platform';
import { randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';

/**
 * A bounded load of ingest, command and read traffic for the fault suites, with the bookkeeping
 * they assert on: what each request was answered, which uplinks got a 202 and which commands a
 * 201, how many 503s came (each checked to be the UNAVAILABLE envelope with Retry-After), and
 * every answer that should not have happened (another 5xx, a malformed envelope, a hang).
 */

/** A request taking longer than this is a hang: the fault suites promise an answer, even if a 503. */
export const HANG_BOUND_MS = 15_000;

export interface Answer {
  status: number;
  body: { success?: boolean; data?: unknown; errors?: { code: string; field?: string }[] } | null;
  headers: Headers;
  ms: number;
}

/** One HTTP call with a hang bound; a connection failure or a timeout is an answer of status 0. */
export async function call(url: string, init: RequestInit & { json?: unknown } = {}): Promise<Answer & { error?: string }> {
  const started = Date.now();
  const { json, ...rest } = init;
  try {
    const res = await fetch(url, {
      ...rest,
      body: json === undefined ? rest.body : JSON.stringify(json),
      headers: { ...(json === undefined ? {} : { 'Content-Type': 'application/json' }), ...(rest.headers as Record<string, string>) },
      signal: AbortSignal.timeout(HANG_BOUND_MS),
    });
    const text = await res.text();
    let body: Answer['body'] = null;
    try {
      body = JSON.parse(text);
    } catch {
      body = null;
    }
    return { status: res.status, body, headers: res.headers, ms: Date.now() - started };
  } catch (error) {
    return { status: 0, body: null, headers: new Headers(), ms: Date.now() - started, error: `${(error as Error).name}: ${(error as Error).message}` };
  }
}

/**
 * `call` over node:http on a connection of its own, with `written`: resolves once the whole request
 * has been handed to the kernel, which on loopback means it has reached the server's socket.
 */
export function callTracked(
  url: string,
  init: { method?: string; headers?: Record<string, string>; json?: unknown } = {},
): { written: Promise<void>; answer: Promise<Answer & { error?: string }> } {
  const started = Date.now();
  const body = init.json === undefined ? undefined : JSON.stringify(init.json);
  let written!: () => void;
  const writtenPromise = new Promise<void>((resolve) => (written = resolve));
  const answer = new Promise<Answer & { error?: string }>((resolve) => {
    const failed = (error: Error) => {
      written();
      resolve({ status: 0, body: null, headers: new Headers(), ms: Date.now() - started, error: `${error.name}: ${error.message}` });
    };
    const req = httpRequest(
      url,
      {
        method: init.method ?? 'GET',
        agent: false,
        headers: { ...(body === undefined ? {} : { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(body)) }), ...init.headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', failed);
        res.on('end', () => {
          let parsed: Answer['body'] = null;
          try {
            parsed = JSON.parse(Buffer.concat(chunks).toString('utf8'));
          } catch {
            parsed = null;
          }
          const headers = new Headers(Object.entries(res.headers).flatMap(([k, v]) => (v === undefined ? [] : [[k, String(v)] as [string, string]])));
          resolve({ status: res.statusCode ?? 0, body: parsed, headers, ms: Date.now() - started });
        });
      },
    );
    req.setTimeout(HANG_BOUND_MS, () => req.destroy(new Error('timed out')));
    req.on('error', failed);
    req.on('finish', () => written());
    req.end(body);
  });
  return { written: writtenPromise, answer };
}

/**
 * An account made over HTTP on a running api process (the process-level suites have no harness):
 * registered, logged in (its session cookie), and with an app token.
 */
export async function accountOverHttp(baseUrl: string, prefix: string): Promise<{ username: string; cookie: string; token: string }> {
  const username = `${prefix}_${randomBytes(3).toString('hex')}`;
  const password = `pw-${randomBytes(8).toString('hex')}`;
  const register = await call(`${baseUrl}/auth/register`, { method: 'POST', json: { username, email: `${username}@example.org`, password } });
  if (register.status !== 201) throw new Error(`register: ${register.status} ${JSON.stringify(register.body)}`);
  const login = await fetch(`${baseUrl}/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  const cookie = login.headers
    .getSetCookie()
    .find((c) => c.startsWith('dts_session='))!
    .split(';')[0]!;
  const made = await call(`${baseUrl}/user/token`, { method: 'POST', headers: { Cookie: cookie }, json: { type: 'API' } });
  const listed = await call(`${baseUrl}/user/token`, { headers: { Cookie: cookie } });
  const token = (listed.body!.data as { uid: number; hash: string }[]).find((t) => t.uid === made.body!.data)!.hash;
  return { username, cookie, token };
}

/** The 503 the service owes a caller while a dependency is down: the UNAVAILABLE envelope with Retry-After. */
export function unavailableProblem(a: Answer): string | null {
  const b = a.body;
  if (a.status !== 503) return `status ${a.status}`;
  if (!b || b.success !== false || b.data !== null || !Array.isArray(b.errors) || !b.errors.some((e) => e.code === 'UNAVAILABLE'))
    return `503 without the UNAVAILABLE envelope: ${JSON.stringify(b)}`;
  if (!(Number(a.headers.get('retry-after')) > 0)) return '503 without Retry-After';
  return null;
}

export interface LoadTargets {
  /** Base URLs the traffic is spread over (round robin). */
  apis: () => string[];
  ingestSecret: string;
  /** Devices uplinks go to. */
  ingestEuis: string[];
  /** Devices commands go to (on the stand-in network). */
  commandEuis: string[];
  /** API token of the account owning every device. */
  token: string;
  /** Session cookie of that account, for GET /user. */
  cookie: string;
}

export interface LoadReport {
  /** route → status → count */
  answers: Record<string, Record<number, number>>;
  /** Uplinks answered 202: `${eui}:${fcnt}` */
  accepted: Set<string>;
  /** Uplinks that got at least one 503 before their 202. */
  retriedUplinks: Set<string>;
  /** 202s whose uplink had been stored already (the request before a retry was committed). */
  duplicatesAnswered: number;
  /** Commands answered 201: uid → payload hex. */
  commands: Map<number, { eui: string; payload: string }>;
  /** Command payloads retried after a 503 (must still be stored at most once). */
  retriedCommands: Set<string>;
  unavailable: number;
  /** Answers that break the promise: another 5xx, a malformed 503, a hang, a connection error when none was expected. */
  unexpected: string[];
  /** Connection errors, allowed only where the caller says so (an instance going away). */
  connectionErrors: number;
  maxMs: number;
}

/**
 * Runs until stop() is called: `ingesters` senders of single uplinks (each a fresh fcnt, retried
 * after a 503 as a network server would), one command sender (a fresh payload each, retried after
 * a 503) and one reader. `allowConnectionErrors` for scenarios where an instance is expected to go.
 */
export function startLoad(t: LoadTargets, options: { ingesters?: number; pauseMs?: number; allowConnectionErrors?: () => boolean } = {}) {
  const report: LoadReport = {
    answers: {},
    accepted: new Set(),
    retriedUplinks: new Set(),
    duplicatesAnswered: 0,
    commands: new Map(),
    retriedCommands: new Set(),
    unavailable: 0,
    unexpected: [],
    connectionErrors: 0,
    maxMs: 0,
  };
  const pause = options.pauseMs ?? 40;
  let running = true;
  let turn = 0;
  const base = () => {
    const apis = t.apis();
    return apis[turn++ % apis.length];
  };
  const tally = (route: string, a: Answer & { error?: string }) => {
    report.maxMs = Math.max(report.maxMs, a.ms);
    (report.answers[route] ??= {})[a.status] = (report.answers[route]?.[a.status] ?? 0) + 1;
  };
  /** Classifies an answer that is not the success: a checked 503 (retry), a tolerated connection error (retry), or a problem. */
  const failure = (route: string, a: Answer & { error?: string }): 'retry' | 'problem' => {
    if (a.status === 503) {
      const problem = unavailableProblem(a);
      if (problem) report.unexpected.push(`${route}: ${problem}`);
      else report.unavailable++;
      return 'retry';
    }
    if (a.status === 0 && options.allowConnectionErrors?.() && !/TimeoutError/.test(a.error ?? '')) {
      report.connectionErrors++;
      return 'retry';
    }
    report.unexpected.push(`${route}: ${a.status} ${a.error ?? JSON.stringify(a.body)?.slice(0, 300)} after ${a.ms} ms`);
    return 'problem';
  };

  let fcnt = 0;
  const ingester = async () => {
    while (running) {
      const n = fcnt++;
      const eui = t.ingestEuis[n % t.ingestEuis.length];
      const key = `${eui}:${n}`;
      // A network server retries an uplink until it is taken; the test does too, even past stop().
      for (let attempt = 0; ; attempt++) {
        const a = await call(`${base()}/ingest/rest`, {
          method: 'POST',
          headers: { 'X-Ingest-Secret': t.ingestSecret },
          json: { devEUI: eui, port: 1, payload_hex: '036700E5', fcnt: n, time_stamp_unix: 1_777_000_000 + n },
        });
        tally('POST /ingest/rest', a);
        if (a.status === 202) {
          report.accepted.add(key);
          if ((a.body?.data as { duplicates?: number })?.duplicates === 1) report.duplicatesAnswered++;
          break;
        }
        if (failure('POST /ingest/rest', a) === 'problem' || attempt > 400) break;
        report.retriedUplinks.add(key);
        await sleep(100);
      }
      await sleep(pause);
    }
  };
  let commandNo = 0;
  const commander = async () => {
    while (running) {
      const n = commandNo++;
      const eui = t.commandEuis[n % t.commandEuis.length]!;
      const payload = `${randomBytes(2).toString('hex')}${n.toString(16).padStart(6, '0')}`;
      for (let attempt = 0; running || attempt > 0; attempt++) {
        const a = await call(`${base()}/user/device/command/${eui}`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${t.token}` },
          json: { port: 10, payload_hex: payload },
        });
        tally('POST /user/device/command', a);
        if (a.status === 201) {
          report.commands.set((a.body?.data as { uid: number }).uid, { eui, payload });
          break;
        }
        if (failure('POST /user/device/command', a) === 'problem' || attempt > 400) break;
        report.retriedCommands.add(payload);
        await sleep(100);
      }
      await sleep(pause * 2);
    }
  };
  const reader = async () => {
    for (let i = 0; running; i++) {
      const eui = t.ingestEuis[i % t.ingestEuis.length];
      const [route, a] =
        i % 2 === 0
          ? (['GET /user/device/data', await call(`${base()}/user/device/data/${eui}`, { headers: { Authorization: `Bearer ${t.token}` } })] as const)
          : (['GET /user', await call(`${base()}/user`, { headers: { Cookie: t.cookie } })] as const);
      tally(route, a);
      if (a.status !== 200) failure(route, a);
      await sleep(pause);
    }
  };
  const all = Promise.all([...Array.from({ length: options.ingesters ?? 2 }, ingester), commander(), reader()]);
  return {
    report,
    /** Stops sending new requests; resolves when the last retry loop has ended. */
    async stop(): Promise<LoadReport> {
      running = false;
      await all;
      return report;
    },
  };
}

/** `route: status×count, …` for the summary lines. */
export function describeAnswers(report: LoadReport): string {
  return Object.entries(report.answers)
    .map(
      ([route, statuses]) =>
        `${route} ${Object.entries(statuses)
          .map(([s, n]) => `${n}×${s}`)
          .join('/')}`,
    )
    .join('; ');
}
