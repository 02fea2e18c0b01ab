// `node tools/soak/soak.mjs [options]`: mixed traffic against the built service for a set time,
// recording RSS, event-loop delay, latency percentiles and errors at every interval, and a verdict
// on whether RSS and p99 stayed flat. See tools/soak/README.md.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { adminQuery } from '../bench/lib/database.mjs';
import { machineInfo } from '../bench/lib/machine.mjs';
import { ROOT } from '../bench/lib/paths.mjs';
import { cleanupAll, onCleanup, sleep } from '../bench/lib/processes.mjs';
import { percentile } from '../bench/lib/stats.mjs';
import { scrape } from './lib/prometheus.mjs';
import { INGEST_SECRET, METRICS_TOKEN, startService } from './lib/service.mjs';
import { intervalLine, judge, markdown } from './lib/summary.mjs';
import { openLoopMix, requestKinds, setUp } from './lib/traffic.mjs';

const USAGE = `Usage: node tools/soak/soak.mjs [options]
  --minutes M     how long the traffic runs (default 10; decimals allowed)
  --interval S    seconds between samples (default 30); the first interval is the warm-up
  --rate N        requests per second, all kinds together (default 100)
  --embedded      one api process (worker in process) on the embedded database in a temporary DATA_DIR,
                  instead of api + standalone worker on PostgreSQL + Redis
  --out FILE      also write the summary (Markdown) to FILE
  --pg URL        admin URL of the PostgreSQL server (default postgres://postgres@127.0.0.1:5432/postgres)
  --redis URL     Redis URL (default redis://127.0.0.1:6379)
  --no-build      do not run tools/build.mjs first
  --help`;

/** How long, after the traffic, the worker may take to hand the last commands to the network. */
const DRAIN_MS = 60_000;

function parseArgs(argv) {
  const opts = {
    argv,
    minutes: 10,
    interval: 30,
    rate: 100,
    embedded: false,
    out: null,
    pg: 'postgres://postgres@127.0.0.1:5432/postgres',
    redis: 'redis://127.0.0.1:6379',
    build: true,
    logLevel: 'info', // the service's default: logging is part of what runs in production
  };
  const positive = (key, value) => {
    const n = Number(value);
    if (!(n > 0)) throw new Error(`${key} must be a positive number\n${USAGE}`);
    return n;
  };
  for (let i = 0; i < argv.length; i++) {
    // Both `--minutes 10` and `--minutes=10`.
    const [key, inline] = argv[i].includes('=') ? [argv[i].slice(0, argv[i].indexOf('=')), argv[i].slice(argv[i].indexOf('=') + 1)] : [argv[i], null];
    const value = () => {
      const v = inline ?? argv[++i];
      if (v === undefined) throw new Error(`${key} needs a value\n${USAGE}`);
      return v;
    };
    switch (key) {
      case '--minutes':
        opts.minutes = positive(key, value());
        break;
      case '--interval':
        opts.interval = positive(key, value());
        break;
      case '--rate':
        opts.rate = positive(key, value());
        break;
      case '--embedded':
        opts.embedded = true;
        break;
      case '--out':
        opts.out = resolve(value());
        break;
      case '--pg':
        opts.pg = value();
        break;
      case '--redis':
        opts.redis = value();
        break;
      case '--no-build':
        opts.build = false;
        break;
      case '--help':
      case '-h':
        console.log(USAGE);
        process.exit(0);
        break;
      default:
        throw new Error(`unknown option ${argv[i]}\n${USAGE}`);
    }
  }
  opts.intervals = Math.max(1, Math.round((opts.minutes * 60) / opts.interval));
  // A warm-up interval, then at least one interval in each of the first and the last third.
  if (opts.intervals < 4)
    throw new Error(
      `--minutes ${opts.minutes} holds ${opts.intervals} interval(s) of ${opts.interval} s: at least 4 are needed (a warm-up and three to compare)`,
    );
  return opts;
}

/** What one interval collects while its requests are answered; `kinds`: per kind, answers, errors and latencies. */
function newWindow() {
  return { sent: 0, classes: { '2xx': 0, '4xx': 0, '5xx': 0, net: 0 }, kinds: new Map() };
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  if (opts.build) {
    const build = spawnSync(process.execPath, [join(ROOT, 'tools/build.mjs')], { stdio: 'inherit' });
    if (build.status !== 0) throw new Error('build failed');
  }
  if (!opts.embedded) await adminQuery(opts.pg, 'SELECT 1'); // fail early without a server
  const machine = await machineInfo(opts);
  console.log(
    `${machine.cpu}, ${machine.cores} cores, ${machine.ramGb} GB, load ${machine.loadAverage.join(' ')}; node ${machine.node}; commit ${machine.gitCommit}${machine.gitDirty ? ' (dirty)' : ''}`,
  );

  const service = await startService(opts);
  const names = service.processes.map((p) => p.name);
  const api = service.processes[0];
  console.log(`started ${service.processes.map((p) => `${p.name} (pid ${p.pid}, ${p.url})`).join(', ')}; ${service.database}`);
  const fixtures = await setUp(api.url, INGEST_SECRET);
  const kinds = requestKinds(fixtures, INGEST_SECRET);
  console.log(`set up: ${fixtures.live.length} live devices, ${fixtures.archive.length} archive devices with a fixed history`);

  // A process that dies ends the soak at once. Not while the clean-up (Ctrl-C, SIGTERM) stops them:
  // a second clean-up running beside the first would delete the Redis keys before the api is down.
  let cleaningUp = false;
  const death = Promise.race(service.processes.map((p) => p.exited.then((e) => `${p.name} exited (${e.code ?? e.signal}):\n${p.stderr()}`))).then((message) =>
    cleaningUp ? new Promise(() => {}) : message,
  );
  const scrapeAll = async () =>
    Object.fromEntries(await Promise.all(service.processes.map(async (p) => [p.name, await scrape(p.url, METRICS_TOKEN, { cluster: p === api })])));
  const before = await scrapeAll(); // also resets the event-loop histograms: interval 1 starts clean

  const clientEld = monitorEventLoopDelay({ resolution: 10 }); // prom-client's default resolution, so the columns compare
  clientEld.enable();
  const totals = { uplinks: 0, commands: 0 };
  const errorsSeen = new Map();
  let window = newWindow();
  const seconds = opts.intervals * opts.interval;
  console.log(`soak: ${opts.rate} req/s for ${seconds} s, a sample every ${opts.interval} s\n`);

  const traffic = openLoopMix({
    baseUrl: api.url,
    kinds,
    rate: opts.rate,
    seconds,
    onSent: () => window.sent++,
    onDone: (kind, req, status, ms, error) => {
      // Anything but 2xx, 5xx or no answer is an error of the soak's own requests: counted as 4xx.
      const cls = status === null ? 'net' : status >= 200 && status < 300 ? '2xx' : status >= 500 ? '5xx' : '4xx';
      window.classes[cls]++;
      const k = window.kinds.get(kind.kind) ?? window.kinds.set(kind.kind, { n: 0, errors: 0, latencies: [] }).get(kind.kind);
      k.n++;
      if (status !== null) k.latencies.push(ms); // a request without an answer has no latency
      if (cls !== '2xx') {
        k.errors++;
        const cause = status ?? `${error.code ?? error.message}${error.reused ? ' on a reused connection' : ''}`;
        const what = `${kind.kind}: ${cause}`;
        if (!errorsSeen.has(what)) console.log(`  ! ${what}`);
        errorsSeen.set(what, (errorsSeen.get(what) ?? 0) + 1);
      }
      if (status === 202 && req.uplinks) totals.uplinks += req.uplinks;
      if (status === 201 && req.command) totals.commands++;
    },
  });
  // Registered last, so run first (also when the soak fails or is interrupted): no new requests while the processes stop.
  onCleanup('stop the traffic', async () => {
    cleaningUp = true;
    traffic.stop();
  });

  const records = [];
  const started = performance.now();
  for (let i = 1; i <= opts.intervals; i++) {
    const boundary = sleep(Math.max(0, started + i * opts.interval * 1000 - performance.now()));
    // The last interval also takes the answers still on their way when the traffic stops.
    const died = await Promise.race([i === opts.intervals ? boundary.then(() => traffic.done) : boundary, death]);
    if (died) throw new Error(died);
    const closed = window;
    window = newWindow();
    const procs = await scrapeAll();
    const latencies = [...closed.kinds.values()].flatMap((k) => k.latencies);
    const record = {
      ...closed,
      latencies,
      elapsedS: Math.round((performance.now() - started) / 1000),
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      max: percentile(latencies, 100),
      procs,
      client: { eldP99Ms: clientEld.percentile(99) / 1e6, rssMb: process.memoryUsage.rss() / 2 ** 20 },
      load: loadavg()[0], // the machine short of CPU (other work on it) shows here
    };
    clientEld.reset();
    records.push(record);
    console.log(intervalLine(record, names));
  }

  // The uplinks were stored before their 202; the commands need the worker: wait for the last ones.
  const drainStart = performance.now();
  let after = await scrapeAll();
  while (after.api.commands.Created > 0 && performance.now() - drainStart < DRAIN_MS) {
    await sleep(1000);
    after = await scrapeAll();
  }
  const notes = [];
  const busy = records.filter((r) => r.load > machine.cores).length;
  if (busy)
    notes.push(
      `in ${busy} of ${records.length} intervals the load average exceeded the ${machine.cores} cores: the service, its databases and the soak were short of CPU (the column shows when).`,
    );
  const end = {
    uplinks: {
      sent: totals.uplinks,
      accepted: after.api.uplinks.accepted - before.api.uplinks.accepted,
      duplicates: after.api.uplinks.duplicates - before.api.uplinks.duplicates,
      rejected: after.api.uplinks.rejected - before.api.uplinks.rejected,
    },
    commands: { created: totals.commands, left: after.api.commands.Created, failed: after.api.commands.Failed },
    notes,
  };
  const verdict = judge(records, names, end);
  machine.loadAverageAfter = loadavg().map((l) => +l.toFixed(2));
  const report = markdown({ opts, machine, service, records, names, verdict, errorsSeen, end, mix: kinds });
  console.log(`\n${report}`);
  if (opts.out) {
    writeFileSync(opts.out, report);
    console.log(`written to ${opts.out}`);
  }
  if (!verdict.flat) process.exitCode = 1;
}

main()
  .catch((error) => {
    console.error(error.stack ?? error);
    process.exitCode = 1;
  })
  .finally(() => cleanupAll());
