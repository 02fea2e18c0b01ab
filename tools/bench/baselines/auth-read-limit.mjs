// Limit of figure 4: a bare node:http server doing the work an authenticated `GET /user/device`
// must do, and nothing else — no framework, no log line, no metrics. Per request: the token's
// SHA-256 digest looked up with its account (a named prepared statement), the per-account rate
// limit counted in the shared store (Redis: one EVALSHA of a fixed-window script; without Redis,
// the service's PostgreSQL upsert, prepared), the account's device EUIs (prepared), and the
// envelope. What the service adds on top of this is what its pipeline costs.
// DATABASE_URL, or DATA_DIR to open the embedded database with the service's own server from dist/;
// REDIS_URL and REDIS_PREFIX for the rate limit on Redis.
//
// DUTIES=1 adds what the service owes every request besides that work, done as cheaply as bare
// code can: a request id (taken or made, echoed), the security headers and the rate-limit
// headers, Express's weak ETag, a log scope (AsyncLocalStorage) around the request, the completion
// line through pino to a buffered stdout, and the duration histogram. The service against this
// server is what its framework costs; this server against the plain one is what those duties cost.
import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash, randomUUID } from 'node:crypto';
import http from 'node:http';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import pg from 'pg';

const LIMIT = 1_000_000_000;
const WINDOW_MS = 60_000;
const TOKEN = /^[0-9a-f]{64}$/;

let url = process.env.DATABASE_URL;
if (!url) {
  const require = createRequire(import.meta.url);
  const { startEmbeddedPostgres } = require(join(process.cwd(), 'dist/libs/persistence/src/embedded/embedded-postgres.js'));
  url = (await startEmbeddedPostgres({ dataDir: process.env.DATA_DIR, maxConnections: 12 })).url;
}
const pool = new pg.Pool({ connectionString: url, max: 10 });

let redis = null;
if (process.env.REDIS_URL) {
  const { default: Redis } = await import('ioredis');
  redis = new Redis(process.env.REDIS_URL);
  redis.defineCommand('hit', {
    numberOfKeys: 1,
    lua: `local n = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl <= 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) ttl = tonumber(ARGV[1]) end
return {n, ttl}`,
  });
}
const prefix = process.env.REDIS_PREFIX ?? 'dts-bench-limit';

const CREDENTIAL = {
  name: 'limit_credential',
  text: `SELECT t.uid, t.type, t.enabled, t.until, a.id AS account_id, a.username, a.groupid, a.active
         FROM api_tokens t JOIN accounts a ON a.id = t.account_id WHERE t.digest = $1`,
};
const DEVICES = {
  name: 'limit_devices',
  text: `SELECT d.eui FROM devices d WHERE d.deleted_at IS NULL
           AND (d.owner_id = $1 OR EXISTS (SELECT 1 FROM device_shares s WHERE s.device_id = d.uid AND s.account_id = $1))
         ORDER BY d.eui`,
};
const RATE = {
  name: 'limit_rate',
  text: `INSERT INTO rate_limits AS r (key, hits, expires_at) VALUES ($1, 1, now() + $2 * interval '1 millisecond')
         ON CONFLICT (key) DO UPDATE SET hits = CASE WHEN r.expires_at <= now() THEN 1 ELSE r.hits + 1 END,
           expires_at = CASE WHEN r.expires_at <= now() THEN EXCLUDED.expires_at ELSE r.expires_at END
         RETURNING hits`,
};

const duties = process.env.DUTIES === '1' ? await dutiesOfARequest() : null;

const send = (res, status, body) => {
  const text = JSON.stringify(body);
  if (duties) return duties.send(res, status, text);
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
};
const refuse = (res, status, code) => send(res, status, { success: false, errors: [{ code }] });

async function devices(req, res) {
  const m = /^bearer\s+(.+)$/i.exec(req.headers.authorization ?? '');
  const token = m?.[1]?.trim();
  if (!token || !TOKEN.test(token)) return refuse(res, 401, 'INVALID_TOKEN');
  const digest = createHash('sha256').update(token, 'utf8').digest();
  const { rows } = await pool.query({ ...CREDENTIAL, values: [digest] });
  const found = rows[0];
  if (!found || found.enabled !== 1 || found.active !== 1 || (found.until && found.until.getTime() <= Date.now())) return refuse(res, 401, 'INVALID_TOKEN');
  const key = `${prefix}:rl:account:${found.account_id}`;
  let hits;
  if (redis) [hits] = await redis.hit(key, WINDOW_MS);
  else hits = (await pool.query({ ...RATE, values: [key, WINDOW_MS] })).rows[0].hits;
  if (hits > LIMIT) return refuse(res, 429, 'RATE_LIMITED');
  const list = await pool.query({ ...DEVICES, values: [found.account_id] });
  if (duties) duties.rateLimited(res, LIMIT, hits);
  send(res, 200, { success: true, data: list.rows.map((r) => r.eui) });
}

/** DUTIES=1: the service's per-request duties, bare (see the head of this file). */
async function dutiesOfARequest() {
  const { default: pino } = await import('pino');
  const { Histogram, Registry } = await import('prom-client');
  const destination = pino.destination({ dest: 1, sync: false, minLength: 4096 });
  setInterval(() => destination.flush(), 1_000).unref();
  const log = pino({ name: 'limit', level: 'info' }, destination);
  const histogram = new Histogram({
    name: 'limit_http_seconds',
    help: 'duration',
    labelNames: ['method', 'route', 'status'],
    registers: [new Registry()],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  });
  const scope = new AsyncLocalStorage();
  // The service's security headers (helmet's, as configured in apps/api/src/configure-app.ts).
  const security = Object.entries({
    'Content-Security-Policy':
      "default-src 'self';base-uri 'self';font-src 'self' https: data:;form-action 'self';frame-ancestors 'self';img-src 'self' data:;object-src 'none';script-src 'self';script-src-attr 'none';style-src 'self' 'unsafe-inline'",
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Cross-Origin-Resource-Policy': 'same-origin',
    'Origin-Agent-Cluster': '?1',
    'Referrer-Policy': 'no-referrer',
    'Strict-Transport-Security': 'max-age=31536000; includeSubDomains',
    'X-Content-Type-Options': 'nosniff',
    'X-DNS-Prefetch-Control': 'off',
    'X-Download-Options': 'noopen',
    'X-Frame-Options': 'SAMEORIGIN',
    'X-Permitted-Cross-Domain-Policies': 'none',
    'X-XSS-Protection': '0',
  });
  return {
    /** Runs the request in its log scope with its id, and writes its completion line when it ends. */
    around(req, res, handle) {
      const started = performance.now();
      const given = req.headers['x-request-id'];
      const id = typeof given === 'string' && /^[A-Za-z0-9._:-]{1,128}$/.test(given) ? given : randomUUID();
      res.setHeader('X-Request-Id', id);
      for (const [name, value] of security) res.setHeader(name, value);
      res.once('finish', () => {
        const status = res.statusCode;
        const ms = performance.now() - started;
        histogram.observe({ method: req.method, route: '/user/device', status: String(status) }, ms / 1000);
        log[status >= 500 ? 'error' : status >= 400 ? 'warn' : 'info'](
          { req: { id, method: req.method, url: req.url }, res: { statusCode: status }, route: '/user/device', responseTime: Math.round(ms) },
          'request completed',
        );
      });
      scope.run({ req }, handle);
    },
    rateLimited(res, limit, hits) {
      res.setHeader('X-RateLimit-Limit-account', limit);
      res.setHeader('X-RateLimit-Remaining-account', Math.max(0, limit - hits));
      res.setHeader('X-RateLimit-Reset-account', 60);
    },
    send(res, status, text) {
      const etag = `W/"${Buffer.byteLength(text).toString(16)}-${createHash('sha1').update(text, 'utf8').digest('base64').slice(0, 27)}"`;
      res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(text), ETag: etag });
      res.end(text);
    },
  };
}

http
  .createServer((req, res) => {
    if (req.url === '/') return void res.end('ok');
    if (req.method !== 'GET' || req.url !== '/user/device') return void refuse(res, 404, 'NOT_FOUND');
    const handle = () =>
      devices(req, res).catch((error) => {
        console.error(error);
        if (!res.headersSent) refuse(res, 500, 'INTERNAL');
        else res.destroy();
      });
    if (duties) duties.around(req, res, handle);
    else handle();
  })
  .listen(Number(process.env.PORT), '127.0.0.1');
