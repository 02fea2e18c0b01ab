// The soak's account, devices and mixed traffic.
//
// The mix keeps every request's cost independent of how long the soak has run, so that a p99 that
// climbs means the service got slower, not that the soak asked for more: reads of the devices that
// receive uplinks are bounded (`limit=100&order=desc`, the newest rows), and the larger history
// reads go to "archive" devices whose history is written once at set-up and never grows.
import http from 'node:http';
import { accountWithToken, call, createDevice, lppHex } from '../../bench/lib/api-client.mjs';

const LIVE_DEVICES = 20;
const ARCHIVE_DEVICES = 2;
const ARCHIVE_UPLINKS = 5000;
const BATCH = 10; // uplinks per small-batch delivery
/** A request whose connection stays silent this long is given up, counted as a network error. */
const TIMEOUT_MS = 15_000;
/** Connections to the api at most; more requests wait for one, and the wait is part of their latency. */
const MAX_SOCKETS = 64;
/**
 * A connection idle this long is closed by the soak. Node's agent would keep it until 1 s before
 * the server's keep-alive timeout (5 s); with timers running late on a machine short of CPU, a
 * request can then go out on a connection the server is closing and fail with ECONNRESET without
 * reaching the service. Closing idle connections well before the server does, as a load balancer
 * should, leaves that race a margin of 4 s instead of 1.
 */
const IDLE_MS = 1000;

const agent = new http.Agent({ keepAlive: true, maxSockets: MAX_SOCKETS, timeout: IDLE_MS });

/**
 * One request, the body read and dropped; resolves with the status. Not the bench's `request()`:
 * the soak needs its own agent (IDLE_MS), and a failure says whether it was on a reused connection
 * (`error.reused`), the keep-alive race above rather than the service.
 */
function send(url, { method, headers, body }) {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      { method, headers: body === undefined ? headers : { ...headers, 'Content-Length': Buffer.byteLength(body) }, agent },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode));
        res.on('error', reject);
      },
    );
    req.setTimeout(TIMEOUT_MS, () => req.destroy(new Error('timeout')));
    req.on('error', (error) => reject(Object.assign(error, { reused: req.reusedSocket })));
    req.end(body);
  });
}

/** An account with an app token, live devices (Cayenne LPP, the default simulated network) and archive devices with a fixed history. */
export async function setUp(baseUrl, ingestSecret) {
  const account = await accountWithToken(baseUrl, 'soak');
  const live = [];
  for (let i = 0; i < LIVE_DEVICES; i++) live.push((await createDevice(baseUrl, account, { decoderRef: 2 })).eui);
  const archive = [];
  for (let i = 0; i < ARCHIVE_DEVICES; i++) {
    const { eui } = await createDevice(baseUrl, account, { decoderRef: 2 });
    await writeHistory(baseUrl, ingestSecret, eui);
    archive.push(eui);
  }
  return { account, live, archive };
}

/** ARCHIVE_UPLINKS uplinks, one a minute up to now, through the ingestion route in deliveries of 1,000. */
async function writeHistory(baseUrl, ingestSecret, eui) {
  const start = Math.floor(Date.now() / 1000) - ARCHIVE_UPLINKS * 60;
  for (let from = 0; from < ARCHIVE_UPLINKS; from += 1000) {
    const body = Array.from({ length: Math.min(1000, ARCHIVE_UPLINKS - from) }, (_, i) => ({
      devEUI: eui,
      port: 1,
      payload_hex: lppHex(20 + ((from + i) % 50) / 10, 50, 3.3),
      fcnt: from + i,
      time_stamp_unix: start + (from + i) * 60,
    }));
    const res = await call(baseUrl, 'POST', '/ingest/rest', { body, headers: { 'X-Ingest-Secret': ingestSecret }, expect: 202 });
    if (res.body.data.accepted !== body.length) throw new Error(`history of ${eui}: ${JSON.stringify(res.body.data).slice(0, 300)}`);
  }
}

/**
 * The kinds of request and their shares (weights add up to 100). `make()` returns the request;
 * `uplinks` and `command` let the caller check the service's own counters against what it sent.
 */
export function requestKinds({ account, live, archive }, ingestSecret) {
  const fcnt = new Map(live.map((eui) => [eui, 0]));
  const pick = (list) => list[Math.floor(Math.random() * list.length)];
  // A new frame counter each time, so that no delivery is a duplicate of an earlier one.
  const uplink = () => {
    const devEUI = pick(live);
    fcnt.set(devEUI, fcnt.get(devEUI) + 1);
    return {
      devEUI,
      port: 1,
      payload_hex: lppHex(15 + Math.random() * 15, 30 + Math.random() * 40, 3 + Math.random() * 0.6),
      fcnt: fcnt.get(devEUI),
      time_stamp_unix: Math.floor(Date.now() / 1000),
    };
  };
  const json = (body) => ({ 'Content-Type': 'application/json', ...body });
  const ingest = (body, uplinks) => ({
    method: 'POST',
    path: '/ingest/rest',
    headers: json({ 'X-Ingest-Secret': ingestSecret }),
    body: JSON.stringify(body),
    uplinks,
  });
  const get = (path) => ({ method: 'GET', path, headers: account.auth });
  return [
    { kind: 'ingest, 1 uplink', weight: 30, make: () => ingest(uplink(), 1) },
    { kind: `ingest, ${BATCH} uplinks`, weight: 10, make: () => ingest(Array.from({ length: BATCH }, uplink), BATCH) },
    { kind: 'GET /user', weight: 10, make: () => get('/user') },
    { kind: 'GET /user/device', weight: 10, make: () => get('/user/device') },
    { kind: 'table, newest 100', weight: 15, make: () => get(`/user/device/table/${pick(live)}?limit=100&order=desc`) },
    { kind: 'data, newest 100', weight: 15, make: () => get(`/user/device/data/${pick(live)}?limit=100&order=desc`) },
    {
      kind: 'command',
      weight: 8,
      make: () => ({
        method: 'POST',
        path: `/user/device/command/${pick(live)}`,
        headers: json({ ...account.auth }),
        body: JSON.stringify({ port: 10, payload_hex: '01' }),
        command: true,
      }),
    },
    // Whole histories of ARCHIVE_UPLINKS rows: the data view is served from its cache, the table from the database.
    { kind: `data, whole (${ARCHIVE_UPLINKS})`, weight: 1, make: () => get(`/user/device/data/${pick(archive)}`) },
    { kind: `table, whole (${ARCHIVE_UPLINKS})`, weight: 1, make: () => get(`/user/device/table/${pick(archive)}`) },
  ];
}

/**
 * Open loop over a mix: `rate` requests a second for `seconds`, due on a uniform schedule whether
 * or not earlier ones have been answered, each latency measured from its due time (as the bench's
 * openLoop, so that a stall shows in the percentiles). The kind of each request is drawn by weight.
 * `onSent(kind)` and `onDone(kind, request, status | null, latencyMs, error?)` report as it goes.
 * @returns {{ done: Promise<void>, stop(): void }} `done` when every request was sent and answered.
 */
export function openLoopMix({ baseUrl, kinds, rate, seconds, onSent, onDone }) {
  const count = Math.max(1, Math.round(rate * seconds));
  const interval = 1000 / rate;
  const totalWeight = kinds.reduce((n, k) => n + k.weight, 0);
  const draw = () => {
    let r = Math.random() * totalWeight;
    return kinds.find((k) => (r -= k.weight) < 0) ?? kinds.at(-1);
  };
  const pending = new Set();
  let sent = 0;
  let timer = null;
  const t0 = performance.now();
  let finished;
  const allSent = new Promise((resolve) => (finished = resolve));
  const tick = () => {
    const now = performance.now();
    while (sent < count && t0 + sent * interval <= now) {
      const due = t0 + sent * interval;
      sent++;
      const kind = draw();
      const req = kind.make();
      onSent(kind);
      const answered = send(`${baseUrl}${req.path}`, req).then(
        (status) => onDone(kind, req, status, performance.now() - due),
        (error) => onDone(kind, req, null, performance.now() - due, error),
      );
      pending.add(answered);
      answered.finally(() => pending.delete(answered));
    }
    if (sent < count) timer = setTimeout(tick, Math.max(0, t0 + sent * interval - performance.now()));
    else finished();
  };
  tick();
  return {
    done: allSent.then(() => Promise.all(pending)).then(() => undefined),
    stop() {
      clearTimeout(timer);
      sent = count;
      finished();
    },
  };
}
