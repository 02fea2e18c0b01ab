// Limit of figure 2: a bare node:http server doing the durable work a single-uplink ChirpStack
// webhook needs, and nothing else — no framework, no log line, no metrics, no group commit. Per
// request: the JSON body parsed, the device looked up by its EUI (a named prepared statement), the
// payload decoded (the domain's Cayenne LPP decoder from dist/), and one prepared statement that
// inserts the uplink and its gateway, moves the device's last-activity and measurement columns and
// its cache version, committed (autocommit) before the 202. What the service adds on top of this is
// what its pipeline costs.
// POST /ingest/chirpstack with X-Ingest-Secret (the bench's); DATABASE_URL, or DATA_DIR to open the
// embedded database with the service's own server from dist/.
import http from 'node:http';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import pg from 'pg';

const require = createRequire(import.meta.url);
const { cayenneLppDecoder } = require(join(process.cwd(), 'dist/libs/domain/src/index.js'));
const MAX_BODY = 1 << 20;

let url = process.env.DATABASE_URL;
if (!url) {
  const { startEmbeddedPostgres } = require(join(process.cwd(), 'dist/libs/persistence/src/embedded/embedded-postgres.js'));
  url = (await startEmbeddedPostgres({ dataDir: process.env.DATA_DIR, maxConnections: 12 })).url;
}
const pool = new pg.Pool({ connectionString: url, max: 10 });

const DEVICE = {
  name: 'limit_device',
  text: `SELECT d.uid, d.owner_id, d.decoder_ref, d.network_ref FROM devices d WHERE d.eui = $1 AND d.deleted_at IS NULL`,
};
const STORE = {
  name: 'limit_store',
  text: `WITH inserted AS (
           INSERT INTO uplinks (device_id, received_at, message_id, port, fcnt, payload, sf, rssi, snr, decoded, valid, temperature, humidity,
                                battery_voltage, simulated)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, false)
           ON CONFLICT (device_id, message_id) WHERE message_id IS NOT NULL DO NOTHING
           RETURNING uid, device_id, received_at),
         heard AS (
           INSERT INTO uplink_gateways (uplink_id, device_id, gateway_id, received_at, rssi, snr)
           SELECT uid, device_id, $15, received_at, $8, $9 FROM inserted),
         updated AS (
           UPDATE devices d SET ts_activity_last = GREATEST(d.ts_activity_last, i.received_at), ts_data_last = GREATEST(d.ts_data_last, i.received_at),
                  battery_voltage = coalesce($14, d.battery_voltage), battery_at = i.received_at, signal_dbm = $8, signal_at = i.received_at
           FROM inserted i WHERE d.uid = i.device_id),
         invalidated AS (
           INSERT INTO data_cache (device_id) SELECT device_id FROM inserted
           ON CONFLICT (device_id) DO UPDATE SET version = data_cache.version + 1)
         SELECT uid::text FROM inserted`,
};

const send = (res, status, body) => {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
};
const refuse = (res, status, code) => send(res, status, { success: false, errors: [{ code }] });

function readBody(req) {
  return new Promise((resolve, reject) => {
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
}

async function ingest(req, res) {
  if (req.headers['x-ingest-secret'] !== process.env.INGEST_SECRET) return refuse(res, 401, 'INVALID_TOKEN');
  const body = JSON.parse(await readBody(req));
  const eui = String(body.deviceInfo?.devEui ?? '').toUpperCase();
  const { rows } = await pool.query({ ...DEVICE, values: [eui] });
  const device = rows[0];
  if (!device) return send(res, 202, { success: true, data: { accepted: 0, duplicates: 0, rejected: [{ index: 0, reason: 'DEVICE_UNKNOWN' }] } });
  const payload = Buffer.from(body.data ?? '', 'base64');
  const { decoded, valid, measurements: m } = cayenneLppDecoder(payload, body.fPort);
  const rx = body.rxInfo?.[0] ?? {};
  const stored = await pool.query({
    ...STORE,
    values: [
      device.uid,
      new Date(body.time ?? Date.now()),
      body.deduplicationId ?? null,
      body.fPort,
      body.fCnt ?? null,
      payload,
      body.txInfo?.modulation?.lora?.spreadingFactor ?? null,
      rx.rssi ?? null,
      rx.snr ?? null,
      JSON.stringify(decoded),
      valid,
      m.temperature,
      m.humidity,
      m.battery_voltage,
      rx.gatewayId ?? null,
    ],
  });
  const accepted = stored.rows.length;
  send(res, 202, { success: true, data: { accepted, duplicates: 1 - accepted, rejected: [] } });
}

http
  .createServer((req, res) => {
    if (req.url === '/') return void res.end('ok');
    if (req.method !== 'POST' || !req.url.startsWith('/ingest/chirpstack')) return void refuse(res, 404, 'NOT_FOUND');
    ingest(req, res).catch((error) => {
      console.error(error);
      if (!res.headersSent) refuse(res, 500, 'INTERNAL');
      else res.destroy();
    });
  })
  .listen(Number(process.env.PORT), '127.0.0.1');
