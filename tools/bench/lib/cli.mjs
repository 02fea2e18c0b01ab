// Command-line options of `npm run bench -- [options]`.
export const FIGURES = [
  'ingest',
  'webhook',
  'history',
  'auth-read',
  'downlink',
  'startup',
  'series',
  'console',
  'integrations',
  'import',
  'codec-load',
  'scale',
  'audit',
  'route-mix',
  'memory',
];

const USAGE = `Usage: npm run bench -- [options]
  --embedded          run on the embedded database (no DATABASE_URL, DATA_DIR in a temp dir)
  --only=a,b          figures to run (${FIGURES.join(', ')}); default all
  --quick             a short smoke run: small sizes, one run each, short durations
  --runs=N            measured runs per figure, median reported (default 3; --quick: 1)
  --duration=S        seconds per load run (default 10; --quick: 3)
  --pg=URL            admin URL of the PostgreSQL server (default postgres://postgres@127.0.0.1:5432/postgres)
  --redis=URL         Redis URL (default redis://127.0.0.1:6379)
  --log-level=LEVEL   LOG_LEVEL of the api (default info, the service's own default)
  --no-build          do not run tools/build.mjs first
  --cpu-prof          write a V8 CPU profile of every api the figures start (tools/bench/results/profiles/)
  --dist=DIR          start the api from another build (e.g. a copy of an earlier dist/, for a before/after)
  --help`;

export function parseArgs(argv) {
  const opts = {
    embedded: false,
    only: [...FIGURES],
    quick: false,
    runs: null,
    duration: null,
    pg: process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
    redis: process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379',
    logLevel: 'info',
    build: true,
    cpuProf: false,
    dist: 'dist',
  };
  for (const arg of argv) {
    const [key, value] = arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, null];
    switch (key) {
      case '--embedded':
        opts.embedded = true;
        break;
      case '--quick':
        opts.quick = true;
        break;
      case '--no-build':
        opts.build = false;
        break;
      case '--cpu-prof':
        opts.cpuProf = true;
        break;
      case '--only': {
        const names = value
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean);
        const unknown = names.filter((n) => !FIGURES.includes(n));
        if (unknown.length) throw new Error(`unknown figure(s): ${unknown.join(', ')} (known: ${FIGURES.join(', ')})`);
        opts.only = FIGURES.filter((f) => names.includes(f));
        break;
      }
      case '--runs':
        opts.runs = positiveInt(key, value);
        break;
      case '--duration':
        opts.duration = positiveInt(key, value);
        break;
      case '--dist':
        opts.dist = value;
        break;
      case '--pg':
        opts.pg = value;
        break;
      case '--redis':
        opts.redis = value;
        break;
      case '--log-level':
        opts.logLevel = value;
        break;
      case '--help':
      case '-h':
        console.log(USAGE);
        process.exit(0);
        break;
      default:
        throw new Error(`unknown option ${arg}\n${USAGE}`);
    }
  }
  opts.runs ??= opts.quick ? 1 : 3;
  opts.duration ??= opts.quick ? 3 : 10;
  opts.warmup = opts.quick ? 2 : 5; // seconds of warm-up load before measuring
  return opts;
}

function positiveInt(key, value) {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${key} must be a positive integer`);
  return n;
}
