// Interval lines, the verdict and the Markdown summary of a soak run.
import { median, percentile } from '../../bench/lib/stats.mjs';

/** "Flat": the last third against the first, the first interval (warm-up) left out of both. */
export const LIMITS = {
  rssFraction: 0.2, // RSS may grow by 20 % of the first third's …
  rssMb: 30, // … or 30 MB, whichever is larger (allocator and JIT noise on a small heap)
  p99Factor: 1.5, // p99 of the last third at most 1.5 × that of the first …
  p99SlackMs: 5, // … + 5 ms (a few ms of scheduling noise on a fast p99)
};

const CLASSES = ['2xx', '4xx', '5xx', 'net'];

const num = (v, digits = 0) => (v === null || v === undefined || Number.isNaN(v) ? '–' : v.toFixed(digits));
/** Event-loop delay p99/max, in ms. */
const eld = (p) => `${num(p?.eldP99Ms)}/${num(p?.eldMaxMs)}`;

/** The first third and the last, after the warm-up interval. */
function thirds(records) {
  const measured = records.slice(1);
  const size = Math.floor(measured.length / 3);
  return { first: measured.slice(0, size), last: measured.slice(measured.length - size) };
}

/** One line per interval, printed as the soak goes. */
export function intervalLine(r, names) {
  const procs = names.map((n) => `${n} rss ${num(r.procs[n]?.rssMb)} MB heap ${num(r.procs[n]?.heapMb)} MB eld ${eld(r.procs[n])} ms`).join(' | ');
  return (
    `${String(r.elapsedS).padStart(5)} s  sent ${String(r.sent).padStart(5)}  2xx ${r.classes['2xx']} 4xx ${r.classes['4xx']} 5xx ${r.classes['5xx']} net ${r.classes.net}` +
    ` | p50 ${num(r.p50, 1)} p99 ${num(r.p99, 1)} max ${num(r.max)} ms | ${procs} | queue ${num(r.procs.api?.queue)} | client eld ${num(r.client.eldP99Ms)} ms rss ${num(r.client.rssMb)} MB | load ${num(r.load, 2)}`
  );
}

/**
 * The verdict: each check with its numbers, and `flat` when all pass.
 * @param end  after the drain: { uplinks: {sent, accepted, duplicates, rejected}, commands: {created, left, failed} }
 */
export function judge(records, names, end) {
  const { first, last } = thirds(records);
  const checks = [];
  for (const name of names) {
    const a = median(first.map((r) => r.procs[name]?.rssMb));
    const b = median(last.map((r) => r.procs[name]?.rssMb));
    const limit = a === null ? null : Math.max(a * LIMITS.rssFraction, LIMITS.rssMb);
    checks.push({
      what: `${name} RSS`,
      ok: a !== null && b !== null && b - a < limit,
      text: `median ${num(a)} MB → ${num(b)} MB (${b - a >= 0 ? '+' : ''}${num(b - a, 1)} MB; limit +${num(limit)} MB)`,
    });
  }
  const p99a = percentile(
    first.flatMap((r) => r.latencies),
    99,
  );
  const p99b = percentile(
    last.flatMap((r) => r.latencies),
    99,
  );
  const p99Limit = p99a * LIMITS.p99Factor + LIMITS.p99SlackMs;
  checks.push({
    what: 'p99 latency',
    ok: p99b <= p99Limit,
    text: `${num(p99a, 1)} ms → ${num(p99b, 1)} ms (limit ${num(p99Limit, 1)} ms = ${LIMITS.p99Factor} × first + ${LIMITS.p99SlackMs} ms)`,
  });
  const totals = Object.fromEntries(CLASSES.map((c) => [c, records.reduce((n, r) => n + r.classes[c], 0)]));
  checks.push({
    what: 'errors',
    ok: totals['4xx'] + totals['5xx'] + totals.net === 0,
    text: `${totals['4xx']} 4xx, ${totals['5xx']} 5xx, ${totals.net} network errors of ${records.reduce((n, r) => n + r.sent, 0)} requests`,
  });
  const u = end.uplinks;
  checks.push({
    what: 'uplinks',
    ok: u.accepted === u.sent && u.duplicates === 0 && u.rejected === 0,
    text: `${u.sent} sent in deliveries answered 202; the api counted ${u.accepted} accepted, ${u.duplicates} duplicates, ${u.rejected} rejected`,
  });
  const c = end.commands;
  checks.push({
    what: 'commands',
    ok: c.left === 0 && c.failed === 0,
    text: `${c.created} created; after the drain ${c.left} still Created, ${c.failed} Failed`,
  });
  return { flat: checks.every((x) => x.ok), checks, first, last };
}

/** Per kind of request (in the mix's order) over the whole run, with its p99 in the first and the last third. */
function kindRows(records, { first, last }, mix) {
  const kinds = mix.map((k) => k.kind);
  const latencies = (set, kind) => set.flatMap((r) => r.kinds.get(kind)?.latencies ?? []);
  return kinds.map((kind) => {
    const all = latencies(records, kind);
    const n = records.reduce((s, r) => s + (r.kinds.get(kind)?.n ?? 0), 0);
    const errors = records.reduce((s, r) => s + (r.kinds.get(kind)?.errors ?? 0), 0);
    return [
      kind,
      String(n),
      String(errors),
      num(percentile(all, 50), 1),
      num(percentile(latencies(first, kind), 99), 1),
      num(percentile(latencies(last, kind), 99), 1),
      num(percentile(all, 100)),
    ];
  });
}

const table = (head, rows) => [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');

/** The whole report: set-up, machine, the interval table, per-kind figures and the verdict. */
export function markdown({ opts, machine, service, records, names, verdict, errorsSeen, end, mix }) {
  const procHead = names.flatMap((n) => [`${n} RSS MB`, `${n} heap MB`, `${n} ELD p99/max ms`]);
  const head = [
    '#',
    't (s)',
    'sent',
    '2xx',
    '4xx',
    '5xx',
    'net',
    'p50 ms',
    'p99 ms',
    'max ms',
    ...procHead,
    'queue',
    'client ELD p99 ms',
    'client RSS MB',
    'load 1 min',
  ];
  const { first, last } = verdict;
  const mark = (r) => (r === records[0] ? ' (warm-up)' : first.includes(r) ? ' (first ⅓)' : last.includes(r) ? ' (last ⅓)' : '');
  const rows = records.map((r, i) => [
    `${i + 1}${mark(r)}`,
    String(r.elapsedS),
    String(r.sent),
    ...CLASSES.map((c) => String(r.classes[c])),
    num(r.p50, 1),
    num(r.p99, 1),
    num(r.max),
    ...names.flatMap((n) => [num(r.procs[n]?.rssMb), num(r.procs[n]?.heapMb), eld(r.procs[n])]),
    num(r.procs.api?.queue),
    num(r.client.eldP99Ms),
    num(r.client.rssMb),
    num(r.load, 2),
  ]);
  const lines = [
    `# Soak run ${machine.date}`,
    '',
    `\`node tools/soak/soak.mjs ${opts.argv.join(' ')}\`: ${opts.minutes} min at ${opts.rate} req/s (open loop), sampled every ${opts.interval} s;`,
    `${opts.embedded ? 'one api process with its worker in process, on the embedded database' : 'api (WORKER_IN_PROCESS=false) + standalone worker on PostgreSQL + Redis'} (${service.database}), started from dist/.`,
    '',
    `Machine: ${machine.cpu}, ${machine.cores} cores, ${machine.ramGb} GB; node ${machine.node}; commit ${machine.gitCommit}${machine.gitDirty ? ' (working tree dirty)' : ''}; ` +
      `${machine.postgres ? `PostgreSQL ${machine.postgres}, Redis ${machine.redis}; ` : `${machine.database}; `}load average ${machine.loadAverage.join(' ')} before, ${machine.loadAverageAfter.join(' ')} after.`,
    '',
    `Mix: ${mix.map((k) => `${k.kind} ${k.weight} %`).join(', ')}.`,
    '',
    'RSS, heap and event-loop delay (ELD: p99 and max of the interval, from `nodejs_eventloop_lag_p99_seconds` and `_max_seconds`; they include the 10 ms sampling resolution) ' +
      "are read from each process's `/metrics` at the end of the interval; latencies are measured by the soak from each request's due time; " +
      "`queue` is `dts_queue_depth` summed over the queues; `client ELD` and `client RSS` are the soak process's own; `load 1 min` is the machine's load average at the end of the interval.",
    '',
    table(head, rows),
    '',
    '## Per kind of request',
    '',
    table(['kind', 'requests', 'errors', 'p50 ms', 'p99 ms first ⅓', 'p99 ms last ⅓', 'max ms'], kindRows(records, verdict, mix)),
    '',
    `## Verdict: ${verdict.flat ? 'flat' : 'NOT flat'}`,
    '',
    ...verdict.checks.map((c) => `- ${c.ok ? 'ok' : '**failed**'} — ${c.what}: ${c.text}`),
    '',
    `Limits: RSS growth (median of the last third minus the first) under max(${LIMITS.rssFraction * 100} %, ${LIMITS.rssMb} MB); ` +
      `p99 of the last third at most ${LIMITS.p99Factor} × the first + ${LIMITS.p99SlackMs} ms; no 4xx, 5xx or network error; ` +
      'every uplink answered 202 counted accepted by the api; no command left Created or Failed once the queue drained.',
  ];
  if (errorsSeen.size) lines.push('', 'Errors seen:', '', ...[...errorsSeen].map(([what, n]) => `- ${what}: ${n}`));
  if (end.notes.length) lines.push('', ...end.notes.map((n) => `Note: ${n}`));
  return `${lines.join('\n')}\n`;
}
