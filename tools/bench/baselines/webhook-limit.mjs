// Limit of figure 2: a server doing the durable work a single-uplink ChirpStack webhook needs, and
// nothing else — no log line, no metrics, no group commit. Two flavours of one server: bare
// `node:http` (the machine's limit), and with EXPRESS=1 the project's own Express 5 with
// express.json() (the framework the service is built on: the service against it is what the
// service's own pipeline costs).
//
// The same round trips with the same SQL as the service (checked with `log_statement = 'all'` and
// `redis-cli MONITOR`, docs/benchmarks.md figure 2): per request, the JSON body parsed, the device
// found by its EUI through the service's own per-process cache (IngestTargetsCache from dist/: a
// look-up only when PostgreSQL says a device changed, or after its TTL) with the service's look-up
// statement, the payload decoded by the domain's decoder, the service's ingestion statement
// (prepared) storing the uplink, its gateway, the device's columns and cache version, committed
// before the 202; then the live notice published (Redis PUBLISH, or NOTIFY without Redis) and the
// service's envelope.
// POST /ingest/chirpstack with X-Ingest-Secret (the bench's); DATABASE_URL, or DATA_DIR to open the
// embedded database with the service's own server from dist/; REDIS_URL and REDIS_PREFIX for the
// live notice on Redis.
import http from 'node:http';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import pg from 'pg';

const require = createRequire(import.meta.url);
const dist = (file) => require(join(process.cwd(), 'dist', file));
const { CHIRPSTACK, decoderByName, rawDecoder, uplinkOffer, NO_MEASUREMENTS } = dist('libs/domain/src/index.js');
const { LIVE_DEVICES_SQL, STORE_UPLINKS_SQL } = dist('libs/persistence/src/uplinks/store-uplinks.sql.js');
const { IngestTargetsCache } = dist('libs/persistence/src/uplinks/ingest-targets.cache.js');
const MAX_BODY = 1 << 20;

let url = process.env.DATABASE_URL;
const embedded = !url;
if (embedded) {
  const { startEmbeddedPostgres } = dist('libs/persistence/src/embedded/embedded-postgres.js');
  url = (await startEmbeddedPostgres({ dataDir: process.env.DATA_DIR, maxConnections: 12 })).url;
}
const pool = new pg.Pool({ connectionString: url, max: 10 });
const targets = new IngestTargetsCache(url);

let publish;
if (process.env.REDIS_URL) {
  const { default: Redis } = await import('ioredis');
  const redis = new Redis(process.env.REDIS_URL);
  const channel = `${process.env.REDIS_PREFIX ?? 'dts-bench-limit'}:live`;
  publish = (message) => redis.publish(channel, message);
} else {
  publish = (message) => pool.query('SELECT pg_notify($1, $2)', ['dts_live', message]);
}

// Named (prepared once per connection) on PostgreSQL; unnamed on the embedded database, whose
// connections share one session — as the service's Statements do.
const prepared = (name, text) => (values) => pool.query(embedded ? { text, values } : { name, text, values });
const liveDevices = prepared('limit_live_devices', LIVE_DEVICES_SQL);
const storeUplinks = prepared('limit_store_uplinks', STORE_UPLINKS_SQL);

async function lookUp(euis) {
  const { rows } = await liveDevices([euis]);
  return new Map(rows.map((r) => [r.eui, { uid: r.uid, ownerId: r.owner_id, decoder: r.decoder_uid === null ? null : r.decoder_name }]));
}

const envelope = (data) => ({ errors: [], debug: [], meta: [], messages: [], data, success: true });
const refusal = (code) => ({ errors: [{ code }], debug: [], meta: [], messages: [], data: null, success: false });

/** The durable work of one delivery: the status and the body to answer. */
async function ingest(body) {
  const eui = String(body.deviceInfo?.devEui ?? '').toUpperCase();
  const device = (await targets.get([eui], lookUp)).get(eui);
  if (!device) return [202, envelope({ accepted: 0, duplicates: 0, rejected: [{ index: 0, devEUI: eui, code: 'NOT_FOUND', message: 'no such device' }] })];
  const payload = Buffer.from(body.data ?? '', 'base64');
  const port = body.fPort ?? 0;
  const { decoded, valid, measurements } = (device.decoder === null ? rawDecoder : (decoderByName(device.decoder) ?? rawDecoder))(payload, port);
  const rx = body.rxInfo?.[0] ?? {};
  const rssi = rx.rssi ?? null;
  const offer = uplinkOffer({ valid, measurements, rssi });
  const uplink = {
    ord: 0,
    device_id: device.uid,
    received_at: body.time ?? new Date().toISOString(),
    network_ref: CHIRPSTACK.uid,
    message_id: `dedup:${body.deduplicationId}`,
    port,
    fcnt: body.fCnt ?? 0,
    payload: payload.toString('hex'),
    sf: body.txInfo?.modulation?.lora?.spreadingFactor ?? null,
    rssi,
    snr: rx.snr ?? null,
    geoloc_lat: null,
    geoloc_lon: null,
    geoloc_alt: null,
    decoded,
    valid,
    payload_errors: null,
    payload_warnings: null,
    ...NO_MEASUREMENTS,
    ...measurements,
    ts_device: null,
    ts_gps: null,
    api_ref: null,
    simulated: false,
    has_data: offer.hasData,
    temperature_dc: offer.temperatureDc,
    has_position: offer.hasPosition,
    signal_percent: offer.signalPercent,
  };
  const gateway = {
    ord: 0,
    gateway_id: rx.gatewayId ?? 'unknown',
    rssi,
    snr: rx.snr ?? null,
    lat: rx.location?.latitude ?? null,
    lon: rx.location?.longitude ?? null,
  };
  const { rows } = await storeUplinks([JSON.stringify([uplink]), [device.uid], JSON.stringify([gateway])]);
  if (rows.length > 0) await publish(JSON.stringify([['u', device.uid, rows[0].uid]]));
  return [202, envelope({ accepted: rows.length, duplicates: 1 - rows.length, rejected: [] })];
}

const authorised = (headers) => headers['x-ingest-secret'] === process.env.INGEST_SECRET;

if (process.env.EXPRESS === '1') {
  const { default: express } = await import('express');
  const app = express();
  app.get('/', (req, res) => res.send('ok'));
  app.post('/ingest/chirpstack', express.json({ limit: MAX_BODY }), (req, res, next) => {
    if (!authorised(req.headers)) return void res.status(401).json(refusal('INVALID_TOKEN'));
    ingest(req.body).then(([status, body]) => res.status(status).json(body), next);
  });
  app.use((req, res) => res.status(404).json(refusal('NOT_FOUND')));
  app.use((error, req, res, _next) => {
    console.error(error);
    res.status(500).json(refusal('INTERNAL'));
  });
  app.listen(Number(process.env.PORT), '127.0.0.1');
} else {
  const send = (res, status, body) => {
    const text = JSON.stringify(body);
    res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(text) });
    res.end(text);
  };
  const readBody = (req) =>
    new Promise((resolve, reject) => {
      const chunks = [];
      let size = 0;
      req.on('data', (c) => {
        size += c.length;
        if (size > MAX_BODY) req.destroy(new Error('too large'));
        else chunks.push(c);
      });
      req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
      req.on('error', reject);
    });
  http
    .createServer((req, res) => {
      if (req.url === '/') return void res.end('ok');
      if (req.method !== 'POST' || !req.url.startsWith('/ingest/chirpstack')) return void send(res, 404, refusal('NOT_FOUND'));
      if (!authorised(req.headers)) return void send(res, 401, refusal('INVALID_TOKEN'));
      readBody(req)
        .then((text) => ingest(JSON.parse(text)))
        .then(([status, body]) => send(res, status, body))
        .catch((error) => {
          console.error(error);
          if (!res.headersSent) send(res, 500, refusal('INTERNAL'));
          else res.destroy();
        });
    })
    .listen(Number(process.env.PORT), '127.0.0.1');
}
