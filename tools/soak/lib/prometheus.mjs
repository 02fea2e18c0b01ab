// One scrape of a process's /metrics (Prometheus text format), reduced to what the soak records.
// prom-client's event-loop histogram is reset by every scrape, so scraping once per interval makes
// nodejs_eventloop_lag_p99_seconds and _max_seconds those of that interval.

/** Sample lines `name{label="value",…} number`; comments and blank lines skipped. */
function parse(text) {
  const samples = [];
  for (const line of text.split('\n')) {
    const m = /^([A-Za-z_:][\w:]*)(?:\{(.*)\})?\s+(\S+)/.exec(line);
    if (!m) continue;
    const labels = Object.fromEntries([...(m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map(([, k, v]) => [k, v]));
    samples.push({ name: m[1], labels, value: Number(m[3]) });
  }
  return samples;
}

/** Sum of the samples of `name` whose labels include `where`; null when there is none. */
function sum(samples, name, where = {}) {
  const hits = samples.filter((s) => s.name === name && Object.entries(where).every(([k, v]) => s.labels[k] === v));
  return hits.length ? hits.reduce((n, s) => n + s.value, 0) : null;
}

const MB = 2 ** 20;

/**
 * @returns {Promise<{ rssMb: number|null, heapMb: number|null, eldP99Ms: number|null, eldMaxMs: number|null, queue: number|null,
 *   commands: Record<string, number|null>, uplinks: { accepted: number|null, duplicates: number|null, rejected: number|null } }>}
 */
export async function scrape(url, token, { cluster = false } = {}) {
  const read = async (path) => {
    const res = await fetch(`${url}${path}`, { headers: { Authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(10_000) });
    const text = await res.text();
    if (res.status !== 200) throw new Error(`${url}${path}: ${res.status} ${text.slice(0, 200)}`);
    return text;
  };
  // The process's own metrics and, from the api, the deployment's queue and command gauges (served
  // apart, at /metrics/cluster, so that they are read once).
  const s = parse(`${await read('/metrics')}\n${cluster ? await read('/metrics/cluster') : ''}`);
  const scaled = (name, factor) => (sum(s, name) === null ? null : sum(s, name) * factor);
  return {
    rssMb: scaled('process_resident_memory_bytes', 1 / MB),
    heapMb: scaled('nodejs_heap_size_used_bytes', 1 / MB),
    eldP99Ms: scaled('nodejs_eventloop_lag_p99_seconds', 1000),
    eldMaxMs: scaled('nodejs_eventloop_lag_max_seconds', 1000),
    queue: sum(s, 'dts_queue_depth'),
    commands: Object.fromEntries(['Created', 'Scheduled', 'Failed'].map((status) => [status, sum(s, 'dts_commands', { status })])),
    uplinks: {
      accepted: sum(s, 'dts_uplinks_accepted_total', { network: 'rest' }) ?? 0,
      duplicates: sum(s, 'dts_uplinks_duplicate_total', { network: 'rest' }) ?? 0,
      rejected: sum(s, 'dts_uplinks_rejected_total', { network: 'rest' }) ?? 0,
    },
  };
}
