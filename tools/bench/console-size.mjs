// The console's size as browsers get it: every script and style of dist/console with its raw,
// brotli and gzip bytes (the forms tools/build-console.mjs writes beside each, as the api and nginx
// send them), and the first page's share (what index.html loads: its script, preloads and styles).
// `node tools/bench/console-size.mjs` after `npm run build`; docs/benchmarks.md keeps the figures.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const dir = join(root, 'dist/console');
if (!existsSync(join(dir, 'index.html'))) throw new Error('dist/console is not built: npm run build');

const size = (path) => (existsSync(path) ? statSync(path).size : null);
const kB = (bytes) => (bytes === null ? '–' : `${(bytes / 1000).toFixed(1)} kB`);
const rows = readdirSync(join(dir, 'assets'))
  .filter((name) => /\.(js|css)$/.test(name))
  .map((name) => {
    const path = join(dir, 'assets', name);
    return { name, raw: size(path), br: size(`${path}.br`), gz: size(`${path}.gz`) };
  })
  .sort((a, b) => b.raw - a.raw);

const html = readFileSync(join(dir, 'index.html'), 'utf8');
const first = new Set([...html.matchAll(/\/console\/assets\/([^"]+\.(?:js|css))"/g)].map((m) => m[1]));
const sum = (list, key) => list.reduce((n, r) => n + (r[key] ?? r.raw), 0);

console.log('| asset | raw | brotli | gzip |\n|---|---|---|---|');
for (const r of rows) console.log(`| ${r.name}${first.has(r.name) ? ' (first page)' : ''} | ${kB(r.raw)} | ${kB(r.br)} | ${kB(r.gz)} |`);
const firstRows = rows.filter((r) => first.has(r.name));
console.log(`| **first page** (${firstRows.length} files) | ${kB(sum(firstRows, 'raw'))} | ${kB(sum(firstRows, 'br'))} | ${kB(sum(firstRows, 'gz'))} |`);
console.log(`| **every script and style** (${rows.length} files) | ${kB(sum(rows, 'raw'))} | ${kB(sum(rows, 'br'))} | ${kB(sum(rows, 'gz'))} |`);
