// Load generation.
//
// Maximum throughput: closed loop — autocannon (or, for long streamed bodies, `closedLoopDrain`),
// each connection sending its next request as soon as the last answer ended.
//
// Latency: open loop at a fixed rate — `openLoop` starts requests on a uniform schedule whether or
// not earlier ones have ended, and measures each latency from the time the request was due, so a
// stall shows in the percentiles instead of silently lowering the rate (no coordinated omission,
// as wrk2 does). autocannon's own `overallRate` is not used for latencies: it gives each connection
// a budget of requests per second that it sends back to back at the start of each second, so the
// load comes in bursts, and its correction assumes an interval of ceil(1/rate) = 1 ms.
import autocannon from 'autocannon';
import http from 'node:http';
import { median, percentile } from './stats.mjs';

/** One closed-loop autocannon run: the achieved rate of 2xx answers, latencies (ms) and failures. */
export async function cannon({ url, method = 'GET', headers = {}, body, requests, connections = 10, duration = 10, timeout = 30 }) {
  const r = await autocannon({ url, method, headers, body, requests, connections, duration, timeout });
  return {
    rate: r['2xx'] / r.duration,
    p50: r.latency.p50,
    p99: r.latency.p99,
    ok: r['2xx'],
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
    failed: r.non2xx + r.errors + r.timeouts,
    seconds: r.duration,
  };
}

const agents = new Map();
function agentFor(maxSockets) {
  if (!agents.has(maxSockets)) agents.set(maxSockets, new http.Agent({ keepAlive: true, maxSockets }));
  return agents.get(maxSockets);
}

/** One request; resolves when the whole body has been read (and dropped). */
export function request(url, { method = 'GET', headers = {}, body, maxSockets = 256, timeoutMs = 60_000 } = {}) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = http.request(
      url,
      { method, headers: body === undefined ? headers : { ...headers, 'Content-Length': Buffer.byteLength(body) }, agent: agentFor(maxSockets) },
      (res) => {
        let bytes = 0;
        res.on('data', (chunk) => (bytes += chunk.length));
        res.on('end', () => resolve({ status: res.statusCode, bytes, ms: performance.now() - started }));
        res.on('error', reject);
      },
    );
    req.setTimeout(timeoutMs, () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.end(body);
  });
}

/** GET `url`, body read to its end. */
export const drain = (url, headers = {}) => request(url, { headers });

/**
 * Open loop: `rate` requests a second for `seconds`, on a uniform schedule, each latency measured
 * from its due time. `makeBody()` (optional) gives each request its own body. At most `maxSockets`
 * requests are on the wire at once; the others wait, and that wait is part of their latency.
 */
export async function openLoop({ url, method = 'GET', headers = {}, body, makeBody, rate, seconds, maxSockets = 256 }) {
  const count = Math.max(1, Math.round(rate * seconds));
  const interval = 1000 / rate;
  const latencies = [];
  let failed = 0;
  let sent = 0;
  const pending = [];
  const t0 = performance.now();
  await new Promise((resolve) => {
    const tick = () => {
      const now = performance.now();
      while (sent < count && t0 + sent * interval <= now) {
        const due = t0 + sent * interval;
        sent++;
        pending.push(
          request(url, { method, headers, body: makeBody ? makeBody() : body, maxSockets }).then(
            (r) => (r.status >= 200 && r.status < 300 ? latencies.push(performance.now() - due) : failed++),
            () => failed++,
          ),
        );
      }
      if (sent < count) setTimeout(tick, Math.max(0, Math.min(interval, t0 + sent * interval - performance.now())));
      else resolve();
    };
    tick();
  });
  await Promise.all(pending);
  const elapsed = (performance.now() - t0) / 1000;
  return {
    target: rate,
    rate: latencies.length / elapsed,
    ok: latencies.length,
    failed,
    p50: percentile(latencies, 50),
    p90: percentile(latencies, 90),
    p99: percentile(latencies, 99),
    max: percentile(latencies, 100),
  };
}

/**
 * Warm-up, then `runs` closed-loop autocannon runs (max throughput) and `runs` open-loop runs at
 * `loadFactor` of the median max (or at `fixedRate`, to compare two servers at the same load).
 */
export async function throughputAndLatency(ctx, base, { loadFactor = 0.8, fixedRate: givenRate = null } = {}) {
  await cannon({ ...base, duration: ctx.warmup });
  const closed = [];
  for (let i = 0; i < ctx.runs; i++) closed.push(await cannon({ ...base, duration: ctx.duration }));
  const maxRate = median(closed.map((r) => r.rate));
  const fixedRate = givenRate ?? Math.max(1, maxRate * loadFactor);
  const fixed = [];
  for (let i = 0; i < ctx.runs; i++) fixed.push(await openLoop({ ...base, rate: fixedRate, seconds: ctx.duration, maxSockets: base.connections ?? 10 }));
  return {
    maxRate,
    fixedRate,
    achieved: median(fixed.map((r) => r.rate)),
    p50: median(fixed.map((r) => r.p50)),
    p99: median(fixed.map((r) => r.p99)),
    failed: closed.concat(fixed).reduce((n, r) => n + r.failed, 0),
    failures: describeFailures(closed, fixed),
    runs: { closed, fixed },
  };
}

function describeFailures(closed, fixed) {
  const sum = (runs, key) => runs.reduce((n, r) => n + (r[key] ?? 0), 0);
  const parts = [];
  if (sum(closed, 'non2xx')) parts.push(`${sum(closed, 'non2xx')} non-2xx`);
  if (sum(closed, 'errors')) parts.push(`${sum(closed, 'errors')} errors`);
  if (sum(closed, 'timeouts')) parts.push(`${sum(closed, 'timeouts')} timeouts`);
  if (sum(fixed, 'failed')) parts.push(`${sum(fixed, 'failed')} failed at the fixed rate`);
  return parts.length ? `failed requests: ${parts.join(', ')}` : null;
}

/** Closed loop for long streamed bodies: `connections` clients, each GETting again as soon as the last body ended. */
export async function closedLoopDrain(url, headers, { connections, seconds }) {
  const deadline = performance.now() + seconds * 1000;
  const started = performance.now();
  let ok = 0;
  let failed = 0;
  let bytes = 0;
  const latencies = [];
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < deadline) {
        try {
          const r = await drain(url, headers);
          if (r.status === 200) ok++;
          else failed++;
          bytes += r.bytes;
          latencies.push(r.ms);
        } catch {
          failed++;
        }
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  return { rate: ok / elapsed, ok, failed, bytes, p50: percentile(latencies, 50), p99: percentile(latencies, 99), seconds: elapsed };
}
