// Baseline of figure 3: a bare node:http server that streams a device's history as a JSON array,
// in keyset batches of 2,000 of the columns a data row shows (libs/persistence/src/uplinks/
// uplink-reads.repository.ts, `dataRows`), each row rendered in JavaScript, with backpressure, and
// nothing else: no auth, no envelope, no slicing between streams. The straightforward server.
// RENDER=sql: the rows rendered by PostgreSQL instead, with the api's own SQL (`dataJsonSql` from
// dist/, one text per batch), as the api's uncached data read does: what that choice gives a bare server.
// GET /data/<device uid> → [{uid, ts_unix, time_stamp, humidity, temperature, battery}, …]
// DATABASE_URL, or DATA_DIR to open the embedded database with the service's own server from dist/.
import { once } from 'node:events';
import http from 'node:http';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import pg from 'pg';

const READ_BATCH = 2_000;
const COLUMNS = `u.uid::text AS uid, u.received_at, u.ts_device, u.humidity, u.temperature, u.battery_voltage, u.geoloc_lat, u.geoloc_lon, u.geoloc_alt`;
const SQL = (keyset) => `SELECT ${COLUMNS} FROM uplinks u
  WHERE u.device_id = $1
    AND ($2::bigint IS NULL OR u.received_at >= to_timestamp($2::bigint))
    AND ($3::bigint IS NULL OR u.received_at < to_timestamp($3::bigint + 1))
    ${keyset ? 'AND (u.received_at, u.uid) > ($5::timestamptz, $6::bigint)' : ''}
  ORDER BY u.received_at ASC, u.uid ASC
  LIMIT $4`;

const require = createRequire(import.meta.url);
const renderInSql = process.env.RENDER === 'sql';
const { dataJsonSql } = renderInSql ? require(join(process.cwd(), 'dist/libs/persistence/src/uplinks/uplink-reads.repository.js')) : {};
let url = process.env.DATABASE_URL;
if (!url) {
  const { startEmbeddedPostgres } = require(join(process.cwd(), 'dist/libs/persistence/src/embedded/embedded-postgres.js'));
  url = (await startEmbeddedPostgres({ dataDir: process.env.DATA_DIR, maxConnections: 12 })).url;
}
const pool = new pg.Pool({ connectionString: url, max: 10 });

const toRow = (r) => {
  const at = r.ts_device ?? r.received_at;
  const row = {
    uid: Number(r.uid),
    ts_unix: Math.floor(at.getTime() / 1000),
    time_stamp: at.toISOString(),
    humidity: r.humidity,
    temperature: r.temperature,
    battery: r.battery_voltage,
  };
  if (r.geoloc_lat !== null && r.geoloc_lon !== null)
    Object.assign(row, { geoloc_LAT: r.geoloc_lat, geoloc_LON: r.geoloc_lon }, r.geoloc_alt === null ? {} : { geoloc_ALT: r.geoloc_alt });
  return row;
};

async function stream(res, deviceUid) {
  if (renderInSql) return streamRendered(res, deviceUid);
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

async function streamRendered(res, deviceUid) {
  res.writeHead(200, { 'Content-Type': 'application/json' });
  res.write('[');
  let after = null;
  for (let first = true; ; first = false) {
    const params = [deviceUid, null, null, READ_BATCH];
    if (after) params.push(after.at, after.uid);
    const [page] = (await pool.query(dataJsonSql('asc', after !== null), params)).rows;
    if (page.count === 0) break;
    if (!res.write(first ? page.json : `,${page.json}`)) await once(res, 'drain');
    if (page.count < READ_BATCH) break;
    after = { at: page.last_at, uid: page.last_uid };
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
