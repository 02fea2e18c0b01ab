// Result rows, the final table and the JSON file.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BENCH_DIR } from './paths.mjs';

/**
 * One line of the results table.
 * @param {object} r
 * @param {string} r.figure   e.g. '1 ingest'
 * @param {string} r.measure  what was measured
 * @param {number|null} r.value
 * @param {string} r.unit
 * @param {number|null} [r.baseline]   the baseline's figure, same unit
 * @param {string} [r.baselineLabel]
 * @param {string} [r.goal]   the issue's goal, in words
 * @param {boolean|null} [r.met]
 * @param {string} [r.note]
 */
export function row(r) {
  const ratio = r.baseline && r.value !== null && r.value !== undefined ? r.value / r.baseline : null;
  return { baseline: null, baselineLabel: null, goal: null, met: null, note: null, ...r, ratio };
}

export function fmt(value, unit = '') {
  if (value === null || value === undefined || Number.isNaN(value)) return '–';
  const abs = Math.abs(value);
  const digits = abs >= 100 ? 0 : abs >= 10 ? 1 : 2;
  const n = value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: 0 });
  return unit ? `${n} ${unit}` : n;
}

function cells(r) {
  return [
    r.figure,
    r.measure,
    fmt(r.value, r.unit),
    r.baseline === null ? '–' : `${fmt(r.baseline, r.unit)}${r.baselineLabel ? ` (${r.baselineLabel})` : ''}`,
    r.ratio === null ? '–' : `${(r.ratio * 100).toFixed(0)}%`,
    r.goal ?? '–',
    r.met === null ? '–' : r.met ? 'met' : 'NOT met',
  ];
}

const HEAD = ['Figure', 'Measure', 'Value', 'Baseline', 'Ratio', 'Goal', 'Goal met'];

export function printTable(rows) {
  const all = [HEAD, ...rows.map(cells)];
  const widths = HEAD.map((_, i) => Math.max(...all.map((c) => c[i].length)));
  const line = (c) => c.map((s, i) => s.padEnd(widths[i])).join('  ');
  console.log(line(HEAD));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const r of rows) console.log(line(cells(r)));
}

/** The same table as Markdown, for docs/benchmarks.md. */
export function markdownTable(rows) {
  const esc = (s) => s.replaceAll('|', '\\|');
  return [`| ${HEAD.join(' | ')} |`, `|${HEAD.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${cells(r).map(esc).join(' | ')} |`)].join('\n');
}

export function writeResults(result) {
  const dir = join(BENCH_DIR, 'results');
  mkdirSync(dir, { recursive: true });
  const stamp = result.machine.date.replace(/[:.]/g, '-');
  const text = `${JSON.stringify(result, null, 2)}\n`;
  const file = join(dir, `${stamp}-${result.options.embedded ? 'embedded' : 'postgres'}${result.options.quick ? '-quick' : ''}.json`);
  writeFileSync(file, text);
  writeFileSync(join(dir, 'latest.json'), text);
  writeFileSync(join(dir, 'latest.md'), `${markdownTable(result.rows)}\n`);
  return file;
}
