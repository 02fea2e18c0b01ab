// `node tools/bench/profile-summary.mjs FILE.cpuprofile [--top=N] [--skip=SECONDS] [--inclusive]`: where a V8 CPU profile (from
// `npm run bench -- --cpu-prof`) spent its time, by function and by package, self time only, so
// that a profile can be read in a terminal and quoted in docs/benchmarks.md.
import { readFileSync } from 'node:fs';

const [file, ...rest] = process.argv.slice(2);
if (!file) {
  console.error('usage: node tools/bench/profile-summary.mjs FILE.cpuprofile [--top=N] [--skip=SECONDS] [--inclusive]');
  process.exit(2);
}
const top = Number(rest.find((a) => a.startsWith('--top='))?.slice(6) ?? 25);
// --skip=S leaves out the first S seconds (start-up and set-up), so that the steady load shows.
const skipUs = Number(rest.find((a) => a.startsWith('--skip='))?.slice(7) ?? 0) * 1e6;
const profile = JSON.parse(readFileSync(file, 'utf8'));

// Self time per node: the sampling interval that each sample's leaf node was running.
const selfMs = new Map();
let elapsedUs = 0;
for (let i = 0; i < profile.samples.length; i++) {
  elapsedUs += profile.timeDeltas[i] ?? 0;
  if (elapsedUs < skipUs) continue;
  const dt = (profile.timeDeltas[i + 1] ?? profile.timeDeltas[i] ?? 0) / 1000;
  selfMs.set(profile.samples[i], (selfMs.get(profile.samples[i]) ?? 0) + dt);
}
const total = [...selfMs.values()].reduce((a, b) => a + b, 0);

/** The package a script belongs to (node_modules/<pkg>), our own code by its top folders, or node's. */
function owner(url) {
  if (!url) return '(native/gc)';
  const nm = url.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const parts = url.slice(nm + 13).split('/');
    return parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0];
  }
  if (url.startsWith('node:')) return 'node';
  const dist = url.indexOf('/dist/');
  return dist >= 0
    ? url
        .slice(dist + 6)
        .split('/')
        .slice(0, 3)
        .join('/')
    : url;
}

const byFunction = new Map();
const byOwner = new Map();
for (const node of profile.nodes) {
  const ms = selfMs.get(node.id) ?? 0;
  if (!ms) continue;
  const { functionName, url, lineNumber } = node.callFrame;
  const name = `${functionName || '(anonymous)'} ${url ? `${url.replace(/^.*node_modules\//, '').replace(/^.*\/dist\//, '')}:${lineNumber + 1}` : ''}`.trim();
  byFunction.set(name, (byFunction.get(name) ?? 0) + ms);
  byOwner.set(owner(url), (byOwner.get(owner(url)) ?? 0) + ms);
}

// Busy time: everything but (idle), the share a function has of the process's work.
const idleMs = [...byFunction].filter(([name]) => name === '(idle)').reduce((a, [, ms]) => a + ms, 0);
const busy = total - idleMs;
const print = (title, map) => {
  console.log(`\n${title} (% of all samples, % of busy samples)`);
  for (const [name, ms] of [...map].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    const ofBusy = name === '(idle)' ? '' : `${((100 * ms) / busy).toFixed(1)}%`;
    console.log(`${((100 * ms) / total).toFixed(1).padStart(6)}% ${ofBusy.padStart(6)}  ${ms.toFixed(0).padStart(7)} ms  ${name}`);
  }
};
// Inclusive time: each function counted once per sampled stack (recursion does not count twice).
const parent = new Map();
for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
const nodesById = new Map(profile.nodes.map((n) => [n.id, n]));
const label = (node) => {
  const { functionName, url, lineNumber } = node.callFrame;
  return `${functionName || '(anonymous)'} ${url ? `${url.replace(/^.*node_modules\//, '').replace(/^.*\/dist\//, '')}:${lineNumber + 1}` : ''}`.trim();
};
const inclusive = new Map();
for (const [leaf, ms] of selfMs) {
  const seen = new Set();
  for (let id = leaf; id !== undefined; id = parent.get(id)) {
    const name = label(nodesById.get(id));
    if (seen.has(name)) continue;
    seen.add(name);
    inclusive.set(name, (inclusive.get(name) ?? 0) + ms);
  }
}

console.log(`${file}: ${(total / 1000).toFixed(1)} s sampled, ${(busy / 1000).toFixed(1)} s busy`);
print('self time by package', byOwner);
print('self time by function', byFunction);
if (rest.includes('--inclusive')) print('inclusive time by function', inclusive);
