// Figure 7: aggregated series. GET /user/device/series/{eui} over 30 days of one device with
// 1,000,000 uplinks (temperature and humidity, one every 2.6 s), interval auto (1 h buckets), all
// four aggregates — against the bare SQL the route runs, sent by pg straight to the same database:
// the read of the hourly rollup (kept up by every insert) and the uplinks of the partial hours at
// either end, and for comparison the one pass over the uplinks that the route sent before rollups.
import { createRequire } from 'node:module';
import { accountWithToken, createDevice } from '../lib/api-client.mjs';
import { freshDatabase, withPool } from '../lib/database.mjs';
import { row } from '../lib/report.mjs';
import { distFile } from '../lib/paths.mjs';
import { startApi } from '../lib/service.mjs';
import { median, percentile } from '../lib/stats.mjs';

const require = createRequire(import.meta.url);

const DAYS = 30;
const CHUNK = 100_000;

/** The statement SeriesRepository sent for two column members and four aggregates before the rollup: every uplink of the range. */
const UPLINKS_SQL = `SELECT extract(epoch FROM date_bin(make_interval(secs => $4), u.received_at, to_timestamp(0)))::bigint AS t,
  min(u.temperature) AS m0_min, avg(u.temperature) AS m0_avg, max(u.temperature) AS m0_max, count(u.temperature)::int AS m0_count,
  min(u.humidity) AS m1_min, avg(u.humidity) AS m1_avg, max(u.humidity) AS m1_max, count(u.humidity)::int AS m1_count
  FROM uplinks u WHERE u.device_id = $1 AND u.received_at >= to_timestamp($2) AND u.received_at < to_timestamp($3::bigint + 1)
  GROUP BY 1 ORDER BY 1`;

export async function run(ctx) {
  const uplinks = ctx.quick ? 100_000 : 1_000_000;
  const requests = ctx.quick ? 5 : 25;
  const db = await freshDatabase(ctx);
  let api = await startApi(ctx, db, { label: 'series' });
  const account = await accountWithToken(api.url);
  const device = await createDevice(api.url, account);
  await api.stop();

  const to = Math.floor(Date.now() / 1000);
  const from = to - DAYS * 86_400;
  const step = (to - from) / uplinks;
  const seeded = performance.now();
  const uplinksPass = await withPool(db, async (pool) => {
    for (let first = 0; first < uplinks; first += CHUNK) {
      await pool.query(
        `INSERT INTO uplinks (device_id, received_at, network_ref, port, fcnt, payload, decoded, valid, temperature, humidity)
         SELECT $1, to_timestamp($2::float8 + g * $3::float8), 4, 1, g, '\\x0167', '{}'::jsonb, true,
                15 + 5 * sin(g / 3000.0), 60 + 20 * cos(g / 5000.0)
         FROM generate_series($4::int, $5::int) g`,
        [device.uid, from, step, first, Math.min(uplinks, first + CHUNK) - 1],
      );
    }
    await pool.query('VACUUM ANALYZE uplinks');
    const times = [];
    await pool.query(UPLINKS_SQL, [device.uid, from, to, 3600]); // warm-up
    for (let i = 0; i < requests; i++) {
      const t = performance.now();
      const { rows } = await pool.query(UPLINKS_SQL, [device.uid, from, to, 3600]);
      times.push(performance.now() - t);
      if (rows.length < DAYS * 24) throw new Error(`the bare SQL gave ${rows.length} buckets`);
    }
    return times;
  });
  const seedSeconds = (performance.now() - seeded) / 1000;

  api = await startApi(ctx, db, { label: 'series' });
  const url = `${api.url}/user/device/series/${device.eui}?members=temperature,humidity&from=${from}&to=${to}&interval=auto&agg=min,avg,max,count`;
  const route = [];
  let buckets = 0;
  const first = performance.now();
  await fetch(url, { headers: account.auth }).then((r) => r.text()); // warm-up
  const firstMs = performance.now() - first;
  for (let i = 0; i < requests; i++) {
    const t = performance.now();
    const res = await fetch(url, { headers: account.auth });
    const body = await res.json();
    route.push(performance.now() - t);
    if (res.status !== 200) throw new Error(`series answered ${res.status}: ${JSON.stringify(body).slice(0, 200)}`);
    buckets = body.data.t.length;
  }
  await api.stop();
  const bare = await withPool(db, (pool) => rollupRead(ctx, pool, { deviceUid: device.uid, from, to, requests }));
  await db.drop();

  const p50 = median(route);
  return [
    row({
      figure: '7 series',
      measure: `GET series/{eui}, ${DAYS} days over ${uplinks / 1000}k uplinks, 2 members × 4 aggregates (${buckets} buckets of 1 h): p50`,
      value: p50,
      unit: 'ms',
      baseline: median(bare),
      baselineLabel: 'the bare SQL of the rollup read through pg',
      goal: ctx.embedded ? null : 'p50 ≤ 150 ms',
      met: ctx.embedded ? null : p50 <= 150,
      note:
        `route p95 ${Math.round(percentile(route, 95))} ms, rollup read SQL p95 ${Math.round(percentile(bare, 95))} ms; ` +
        `the one pass over the uplinks (the route's statement before the rollup) p50 ${Math.round(median(uplinksPass))} ms, p95 ${Math.round(percentile(uplinksPass, 95))} ms; ` +
        `the first request ${Math.round(firstMs)} ms (nothing to fill: the rollup is kept up at ingestion); ${requests} requests one at a time; seeding took ${seedSeconds.toFixed(0)} s`,
    }),
  ];
}

/**
 * The statement the route sends, built by the service's own code from dist/ (the regions of the
 * range, then the read), timed through pg on a connection set up as the route's (JIT off).
 */
async function rollupRead(ctx, pool, { deviceUid, from, to, requests }) {
  const { seriesRegions, seriesSql } = require(distFile(ctx, 'libs/persistence/src/series/series.sql.js'));
  const request = { deviceUid, members: ['temperature', 'humidity'], aggregates: ['min', 'avg', 'max', 'count'], intervalSeconds: 3600 };
  const regions = seriesRegions({ from, to, intervalSeconds: 3600, hourlyFrom: Number.NEGATIVE_INFINITY, dailyFrom: Number.NEGATIVE_INFINITY });
  const { sql, params } = seriesSql({ ...request, regions });
  const times = [];
  const client = await pool.connect();
  try {
    await client.query('SET jit = off'); // as the route's connections are (ReadDatabase)
    await client.query(sql, params); // warm-up
    for (let i = 0; i < requests; i++) {
      const t = performance.now();
      const { rows } = await client.query(sql, params);
      times.push(performance.now() - t);
      if (rows.length < DAYS * 24) throw new Error(`the rollup read gave ${rows.length} buckets`);
    }
  } finally {
    client.release();
  }
  return times;
}
