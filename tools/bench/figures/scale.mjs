// Figure 12: telemetry at scale (issue 29). PostgreSQL only. A deployment two years old with
// monthly partitions; a heavy device H with 100,000 uplinks over those two years (one every 10.5
// minutes: temperature, humidity, a decoded CO2). The same figures measured at 100k uplinks (H
// alone) and at 10M (H and a fleet of 9,999 devices with 990 uplinks each over the last 30 days,
// one every 44 minutes), each against its own 100k value:
//  - ingestion (POST /ingest/rest, 500 uplinks a request, the product's batch path) at 10M against
//    an empty database;
//  - H's newest-100 read, its series over 30 days in hourly buckets and over two years in daily
//    buckets (p50), at 10M against 100k;
//  - removing a month: dropping the oldest monthly partition of the uplinks and their gateways
//    (RetentionRepository.dropExpiredRaw, the service's code from dist/) while ingestion runs,
//    the longest ingest request then against the same load's longest without it;
//  - bytes per stored uplink (the partitioned table with its indexes; the rollups apart) against a
//    bare table of the same columns and rows.
// Rows are seeded by INSERT … SELECT into the service's schema (100,000 a statement): the rollup
// trigger runs for each statement as it does for ingestion's.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { accountWithToken, call, lppHex } from '../lib/api-client.mjs';
import { freshDatabase, withPool } from '../lib/database.mjs';
import { cannon } from '../lib/load.mjs';
import { row } from '../lib/report.mjs';
import { distFile, ROOT } from '../lib/paths.mjs';
import { BENCH_SECRETS, startApi } from '../lib/service.mjs';
import { median } from '../lib/stats.mjs';

const require = createRequire(import.meta.url);
const DAY = 86_400;
const CHUNK = 100_000;
const BATCH = 500;
const INGEST_DEVICES = 10;
const MONTHS = 25;

export async function run(ctx) {
  if (ctx.embedded)
    return [row({ figure: '12 scale', measure: 'skipped on the embedded database (a figure of PostgreSQL at 10M rows)', value: null, unit: '' })];
  const heavy = ctx.quick ? 10_000 : 100_000;
  const total = ctx.quick ? 200_000 : 10_000_000;
  const others = 9_999;
  const perOther = Math.floor((total - heavy) / others);
  const requests = ctx.quick ? 5 : 25;
  const now = Math.floor(Date.now() / 1000);
  const start = now - 730 * DAY;

  const db = await freshDatabase(ctx);
  const env = { ACCOUNT_MAX_DEVICES: '20000' };
  let api = await startApi(ctx, db, { label: 'scale', env });
  const account = await accountWithToken(api.url);
  await api.stop();
  const setup = await withPool(db, (pool) => layout(ctx, pool, account.username, others, start));

  const out = [];
  const measureAt = async (label) => {
    api = await startApi(ctx, db, { label: 'scale', env });
    const reads = await readFigures(api.url, account, setup.heavyEui, now, requests);
    await api.stop();
    return { label, ...reads };
  };

  // Ingestion on the empty database (partitions made, nothing stored yet).
  api = await startApi(ctx, db, { label: 'scale', env });
  const emptyRate = await ingestRate(ctx, api.url, setup.ingestEuis);
  await api.stop();

  const seeded = performance.now();
  await withPool(db, (pool) => seed(pool, [setup.heavy], heavy, start, 730 * DAY));
  const small = await measureAt('100k');
  await withPool(db, (pool) => seed(pool, setup.others, perOther, now - 30 * DAY, 30 * DAY));
  const seedSeconds = (performance.now() - seeded) / 1000;
  const large = await measureAt('10M');
  api = await startApi(ctx, db, { label: 'scale', env });
  const largeRate = await ingestRate(ctx, api.url, setup.ingestEuis);
  const removal = await removeMonth(ctx, db, api.url, setup.ingestEuis);
  await api.stop();
  const bytes = await withPool(db, (pool) => storage(pool));
  await db.drop();

  const within = (value, baseline, factor) => value <= baseline * factor;
  out.push(
    row({
      figure: '12 scale',
      measure: `ingestion at ${label(bytes.rows)} rows: POST /ingest/rest, ${BATCH} uplinks/request, 8 connections`,
      value: largeRate,
      unit: 'uplinks/s',
      baseline: emptyRate,
      baselineLabel: 'the same on the empty database',
      goal: 'within 10% of the empty database',
      met: largeRate >= emptyRate * 0.9,
      note: `seeding ${label(total)} rows took ${seedSeconds.toFixed(0)} s`,
    }),
  );
  for (const [key, what, goal] of [
    ['newest', `H's newest 100 (GET data?order=desc&limit=100)`, null],
    ['hourly', `H's series over 30 days in 1 h buckets`, null],
    ['daily', `H's series over 2 years in 1 d buckets`, 150],
  ]) {
    const met = within(large[key], small[key], 1.5) && (goal === null || large[key] <= goal);
    out.push(
      row({
        figure: '12 scale',
        measure: `${what} at ${label(total)} rows: p50`,
        value: large[key],
        unit: 'ms',
        baseline: small[key],
        baselineLabel: `the same at ${label(heavy)} rows`,
        goal: `p50 within 1.5× of its ${label(heavy)}-row value${goal ? `, ≤ ${goal} ms` : ''}`,
        met,
        note: `p95 ${Math.round(large[`${key}P95`])} ms (${label(heavy)}: ${Math.round(small[`${key}P95`])} ms)`,
      }),
    );
  }
  out.push(
    row({
      figure: '12 scale',
      measure: `removing the oldest month (${Number(removal.rows).toLocaleString('en')} uplinks with the days before it, its partitions dropped) under ingestion load`,
      value: removal.ms,
      unit: 'ms',
      goal: '< 1 s',
      met: removal.ms < 1_000,
      note: `partitions dropped: ${removal.dropped.join(', ')}`,
    }),
    row({
      figure: '12 scale',
      measure: 'the longest ingest request while the month is removed',
      value: removal.during.max,
      unit: 'ms',
      baseline: removal.before.max,
      baselineLabel: 'the longest of the same load without a removal',
      goal: '≤ 100 ms above the baseline',
      met: removal.during.max <= removal.before.max + 100,
      note: `p99 ${Math.round(removal.during.p99)} ms against ${Math.round(removal.before.p99)} ms`,
    }),
    row({
      figure: '12 scale',
      measure: 'bytes per stored uplink (table, TOAST and indexes of every partition)',
      value: bytes.perUplink,
      unit: 'B',
      baseline: bytes.barePerUplink,
      baselineLabel: 'a bare table of the same columns and rows, no index',
      note: `the rollups add ${Math.round(bytes.rollupsPerUplink)} B per uplink (hourly and daily); indexes ${Math.round(bytes.indexPerUplink)} B of it`,
    }),
  );
  return out;
}

const label = (n) => (n >= 1_000_000 ? `${(n / 1_000_000).toFixed(n % 1_000_000 ? 1 : 0)}M` : `${Math.round(n / 1000)}k`);

/**
 * The partitions of a deployment that started two years ago with monthly partitions: the empty
 * history partitions the migration made are replaced by ones ending 25 months back, then the
 * service's own TimePartitionsRepository adds the months up to two ahead. The devices: H, the
 * others, and those the ingestion load writes to, all owned by the bench account.
 */
async function layout(ctx, pool, username, others, start) {
  const first = new Date(start * 1000);
  const historyEnd = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth(), 1)).toISOString();
  for (const table of ['uplinks', 'uplink_gateways', 'uplink_rollups_hourly']) {
    // The (empty) partitions the migration and the worker's first run made.
    const { rows } = await pool.query(`SELECT inhrelid::regclass::text AS name FROM pg_inherits WHERE inhparent = $1::regclass`, [table]);
    for (const { name } of rows) await pool.query(`DROP TABLE ${name}`);
    await pool.query(`CREATE TABLE ${table}_history PARTITION OF ${table} FOR VALUES FROM (MINVALUE) TO ('${historyEnd}')`);
  }
  const { DataSource } = require(join(ROOT, 'node_modules/typeorm'));
  const { dataSourceOptions } = require(distFile(ctx, 'libs/persistence/src/data-source.js'));
  const { TimePartitionsRepository } = require(distFile(ctx, 'libs/persistence/src/timeseries/time-partitions.repository.js'));
  const ds = await new DataSource(dataSourceOptions({ url: pool.options.connectionString, poolSize: 2 })).initialize();
  try {
    const until = new Date(Date.now() + 62 * DAY * 1000);
    await new TimePartitionsRepository(ds, { partitionInterval: 'month' }).ensure(until, 'month');
  } finally {
    await ds.destroy();
  }
  const [{ id: owner }] = (await pool.query('SELECT id FROM accounts WHERE username = $1', [username])).rows;
  const make = async (prefix, n) =>
    (
      await pool.query(
        `INSERT INTO devices (eui, owner_id, label, decoder_ref)
         SELECT $1 || lpad(upper(to_hex(g)), 8, '0'), $2, 'scale ' || g, 2 FROM generate_series(1, $3::int) g RETURNING uid, eui`,
        [prefix, owner, n],
      )
    ).rows;
  const [heavyDevice] = await make('5CA1E000', 1);
  const otherDevices = await make('5CA1E001', others);
  const ingest = await make('5CA1E002', INGEST_DEVICES);
  const partitions = (await pool.query(`SELECT count(*)::int AS n FROM pg_inherits WHERE inhparent = 'uplinks'::regclass`)).rows[0].n;
  if (partitions < MONTHS) throw new Error(`only ${partitions} partitions of uplinks`);
  return { heavy: heavyDevice.uid, heavyEui: heavyDevice.eui, others: otherDevices.map((d) => d.uid), ingestEuis: ingest.map((d) => d.eui) };
}

/** `perDevice` uplinks of each device, evenly over `span` seconds from `start`, in statements of CHUNK rows. */
async function seed(pool, devices, perDevice, start, span) {
  const devicesPerChunk = Math.max(1, Math.floor(CHUNK / perDevice));
  for (let i = 0; i < devices.length; i += devicesPerChunk) {
    await pool.query(
      `INSERT INTO uplinks (device_id, received_at, network_ref, port, fcnt, payload, rssi, snr, sf, decoded, valid, temperature, humidity)
       SELECT d, to_timestamp($2::bigint + (g::float8 * $3::float8 / $4::float8) + (d % 600)), 4, 1, g, '\\x016700e5026864', -90 - g % 20, 7.5, 7,
              jsonb_build_object('co2', 400 + g % 300), true, 15 + 5 * sin(g / 300.0), 40 + g % 30
       FROM unnest($1::int[]) d, generate_series(0, $4::int - 1) g`,
      [devices.slice(i, i + devicesPerChunk), start, span, perDevice],
    );
  }
  await pool.query('VACUUM ANALYZE uplinks');
  await pool.query('VACUUM ANALYZE uplink_rollups_hourly');
  await pool.query('VACUUM ANALYZE uplink_rollups_daily');
  // The seeding's dirty pages written out now, not by the checkpointer while the reads are timed:
  // on two cores that write-back was the difference between the 100k and the 10M reads.
  await pool.query('CHECKPOINT');
}

async function readFigures(url, account, eui, now, requests) {
  const timed = async (path) => {
    const times = [];
    await fetch(`${url}${path}`, { headers: account.auth }).then((r) => r.text()); // warm-up
    for (let i = 0; i < requests; i++) {
      const t = performance.now();
      const res = await fetch(`${url}${path}`, { headers: account.auth });
      await res.text();
      times.push(performance.now() - t);
      if (res.status !== 200) throw new Error(`${path} answered ${res.status}`);
    }
    const sorted = [...times].sort((a, b) => a - b);
    return { p50: median(times), p95: sorted[Math.floor(sorted.length * 0.95)] ?? sorted.at(-1) };
  };
  const newest = await timed(`/user/device/data/${eui}?order=desc&limit=100`);
  const hourly = await timed(`/user/device/series/${eui}?members=temperature,humidity,co2&from=${now - 30 * DAY}&to=${now}&interval=1h`);
  const daily = await timed(`/user/device/series/${eui}?members=temperature,humidity,co2&from=${now - 730 * DAY}&to=${now}&interval=1d`);
  return { newest: newest.p50, newestP95: newest.p95, hourly: hourly.p50, hourlyP95: hourly.p95, daily: daily.p50, dailyP95: daily.p95 };
}

function ingestBody(euis) {
  return JSON.stringify(
    Array.from({ length: BATCH }, (_, i) => ({
      devEUI: euis[i % euis.length],
      port: 1,
      payload_hex: lppHex(15 + (i % 100) / 10, 30 + (i % 40), 3 + (i % 10) / 10),
      fcnt: i,
      RSSI: -90 - (i % 20),
      SNR: 7.5,
      SF: 7,
    })),
  );
}

async function ingestRate(ctx, url, euis) {
  const headers = { 'Content-Type': 'application/json', 'X-Ingest-Secret': BENCH_SECRETS.INGEST_SECRET };
  const check = await call(url, 'POST', '/ingest/rest', { body: JSON.parse(ingestBody(euis)), headers: { 'X-Ingest-Secret': BENCH_SECRETS.INGEST_SECRET } });
  if (check.status !== 202 || check.body.data.accepted !== BATCH) throw new Error(`an ingest batch answered ${check.status}`);
  await cannon({ url: `${url}/ingest/rest`, method: 'POST', headers, body: ingestBody(euis), connections: 8, duration: ctx.warmup });
  const runs = [];
  for (let i = 0; i < ctx.runs; i++)
    runs.push(await cannon({ url: `${url}/ingest/rest`, method: 'POST', headers, body: ingestBody(euis), connections: 8, duration: ctx.duration }));
  return median(runs.map((r) => r.rate)) * BATCH;
}

/**
 * Ingestion of one uplink a request on 4 connections for a while (the baseline), then the same
 * while the oldest month's partitions are dropped by the service's own code.
 */
async function removeMonth(ctx, db, url, euis) {
  const headers = { 'Content-Type': 'application/json', 'X-Ingest-Secret': BENCH_SECRETS.INGEST_SECRET };
  let n = 0;
  const load = async (seconds, during = async () => undefined) => {
    const latencies = [];
    const deadline = performance.now() + seconds * 1000;
    const clients = Array.from({ length: 4 }, async () => {
      while (performance.now() < deadline) {
        const body = JSON.stringify({ devEUI: euis[n % euis.length], port: 1, payload_hex: lppHex(20, 50, 3.3), fcnt: n++ });
        const t = performance.now();
        const res = await fetch(`${url}/ingest/rest`, { method: 'POST', headers, body });
        await res.text();
        latencies.push(performance.now() - t);
      }
    });
    const result = await during();
    await Promise.all(clients);
    const sorted = latencies.sort((a, b) => a - b);
    return { result, max: sorted.at(-1), p99: sorted[Math.floor(sorted.length * 0.99)] };
  };
  const before = await load(5);
  const { DataSource } = require(join(ROOT, 'node_modules/typeorm'));
  const { dataSourceOptions } = require(distFile(ctx, 'libs/persistence/src/data-source.js'));
  const { TimePartitionsRepository } = require(distFile(ctx, 'libs/persistence/src/timeseries/time-partitions.repository.js'));
  const { RetentionRepository } = require(distFile(ctx, 'libs/persistence/src/timeseries/retention.repository.js'));
  const ds = await new DataSource(dataSourceOptions({ url: db.url, poolSize: 2 })).initialize();
  try {
    const partitions = new TimePartitionsRepository(ds, { partitionInterval: 'month' });
    // The first month of H's history is partial (it began on the 27th): the cutoff is the end of
    // the first whole month after it, so that a whole month is removed (with the days before it).
    const [history, partial, oldest] = await partitions.list('uplinks');
    const [{ n: rows }] = await ds.query(`SELECT (SELECT count(*) FROM ${partial.name}) + (SELECT count(*) FROM ${oldest.name}) AS n`);
    const days = Math.floor((Date.now() - oldest.to.getTime()) / 86_400_000);
    const settings = { partitionInterval: 'month', uplinkRetentionDays: days, hourlyRollupRetentionDays: null, dailyRollupRetentionDays: null };
    const retention = new RetentionRepository(ds, new TimePartitionsRepository(ds, settings), settings);
    const policy = await retention.policy();
    const during = await load(5, async () => {
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      const t = performance.now();
      const dropped = await retention.dropExpiredRaw(new Date(), policy);
      return { ms: performance.now() - t, dropped: dropped.map((p) => p.name) };
    });
    if (!during.result.dropped.includes(oldest.name) || during.result.dropped.length !== 3)
      throw new Error(`the oldest whole month ${oldest.name} was not dropped alone with what came before (${during.result.dropped}); history ${history.name}`);
    return { ms: during.result.ms, dropped: during.result.dropped, rows, before, during };
  } finally {
    await ds.destroy();
  }
}

async function storage(pool) {
  const size = async (parent) =>
    Number(
      (
        await pool.query(
          `SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0) AS total, coalesce(sum(pg_indexes_size(c.oid)), 0) AS indexes
           FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = $1::regclass`,
          [parent],
        )
      ).rows[0].total,
    );
  const [{ n: rows }] = (await pool.query('SELECT count(*)::int AS n FROM uplinks')).rows;
  const [{ indexes }] = (
    await pool.query(
      `SELECT coalesce(sum(pg_indexes_size(c.oid)), 0)::bigint AS indexes FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = 'uplinks'::regclass`,
    )
  ).rows;
  const uplinks = await size('uplinks');
  const hourly = await size('uplink_rollups_hourly');
  const daily = Number((await pool.query(`SELECT pg_total_relation_size('uplink_rollups_daily') AS n`)).rows[0].n);
  // The bare table: the same columns (LIKE), the same rows, no index, no trigger.
  await pool.query('CREATE TABLE bare_uplinks (LIKE uplinks)');
  await pool.query('INSERT INTO bare_uplinks SELECT * FROM uplinks');
  await pool.query('VACUUM ANALYZE bare_uplinks');
  const bare = Number((await pool.query(`SELECT pg_total_relation_size('bare_uplinks') AS n`)).rows[0].n);
  await pool.query('DROP TABLE bare_uplinks');
  return { rows, perUplink: uplinks / rows, indexPerUplink: Number(indexes) / rows, rollupsPerUplink: (hourly + daily) / rows, barePerUplink: bare / rows };
}
