export function median(values) {
  const v = values.filter((x) => x !== null && x !== undefined && !Number.isNaN(x)).sort((a, b) => a - b);
  if (v.length === 0) return null;
  const mid = Math.floor(v.length / 2);
  return v.length % 2 ? v[mid] : (v[mid - 1] + v[mid]) / 2;
}

/** Nearest-rank percentile of raw samples. */
export function percentile(values, p) {
  if (values.length === 0) return null;
  const v = [...values].sort((a, b) => a - b);
  return v[Math.min(v.length - 1, Math.max(0, Math.ceil((p / 100) * v.length) - 1))];
}

/** The run whose `key` is the median (so that its other members belong to the same run). */
export function medianRun(runs, key) {
  const sorted = [...runs].sort((a, b) => a[key] - b[key]);
  return sorted[Math.floor((sorted.length - 1) / 2)];
}
