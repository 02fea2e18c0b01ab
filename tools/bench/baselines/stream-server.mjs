// Baseline of figure 3: a bare node:http server that streams a device's history as a JSON array,
// with the api's SQL (libs/persistence/src/repositories/uplink-reads.repository.ts: keyset batches
// of 2,000, the same columns and join) and backpressure, and nothing else: no auth, no envelope.
// GET /data/<device uid> → [{uid, ts_unix, time_stamp, humidity, temperature, battery}, …]
// DATABASE_URL, or DATA_DIR to open the embedded database with the service's own server from dist/.
import { once } from 'node:events';
import http from 'node:http';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import pg from 'pg';

const READ_BATCH = 2_000;
const COLUMNS = `u.uid::text AS uid, u.received_at, u.port, u.payload, u.sf, u.rssi, u.snr, u.geoloc_lat, u.geoloc_lon, u.geoloc_alt, u.decoded,
  u.valid, u.temperature, u.humidity, u.battery_voltage, u.battery_percent, u.lat, u.lon, u.alt, u.firmware_version, u.ts_device, u.ts_gps,
  u.api_ref, n.name AS network`;
const SQL = (keyset) => `SELECT ${COLUMNS} FROM uplinks u LEFT JOIN networks n ON n.uid = u.network_ref
  WHERE u.device_id = $1
    AND ($2::bigint IS NULL OR u.received_at >= to_timestamp($2::bigint))
    AND ($3::bigint IS NULL OR u.received_at < to_timestamp($3::bigint + 1))
    ${keyset ? 'AND (u.received_at, u.uid) > ($5::timestamptz, $6::bigint)' : ''}
  ORDER BY u.received_at ASC, u.uid ASC
  LIMIT $4`;

let url = process.env.DATABASE_URL;
if (!url) {
  const require = createRequire(import.meta.url);
  const { startEmbeddedPostgres } = require(join(process.cwd(), 'dist/libs/persistence/src/embedded/embedded-postgres.js'));
  url = (await startEmbeddedPostgres({ dataDir: process.env.DATA_DIR, maxConnections: 12 })).url;
}
const pool = new pg.Pool({ connectionString: url, max: 10 });

const toRow = (r) => ({
  uid: Number(r.uid),
  ts_unix: Math.floor(r.received_at.getTime() / 1000),
  time_stamp: r.received_at.toISOString(),
  humidity: r.humidity,
  temperature: r.temperature,
  battery: r.battery_voltage,
});

async function stream(res, deviceUid) {
  res.writeHead(200, { 'Content-Type': 'application/json' });
  res.write('[');
  let first = true;
  let after = null;
  for (;;) {
    const params = [deviceUid, null, null, READ_BATCH];
    if (after) params.push(after.at, after.uid);
    const { rows } = await pool.query(SQL(after !== null), params);
    if (rows.length === 0) break;
    let chunk = '';
    for (const r of rows) {
      chunk += (first ? '' : ',') + JSON.stringify(toRow(r));
      first = false;
    }
    if (!res.write(chunk)) await once(res, 'drain');
    if (rows.length < READ_BATCH) break;
    const last = rows[rows.length - 1];
    after = { at: last.received_at, uid: last.uid };
  }
  res.end(']');
}

http
  .createServer((req, res) => {
    const m = /^\/data\/(\d+)$/.exec(req.url);
    if (req.url === '/') return void res.end('ok');
    if (!m) return void res.writeHead(404).end();
    stream(res, Number(m[1])).catch((error) => {
      console.error(error);
      res.destroy(error);
    });
  })
  .listen(Number(process.env.PORT), '127.0.0.1');
