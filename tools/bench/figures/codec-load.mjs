// Figure 11: what loading a large codec costs a codec thread. A 321 KB script (the size of
// Abeeway's asset-tracker-2.js, not in the test data; made of the real vendor codecs of
// test-data/lorawan-devices, each kept compiled: largeCodecScript) is checked (loaded, and
// decodeUplink looked up) on a fresh codec thread (dist/…/codec-worker.js, as CodecPool starts
// it), then again on the same thread; against a same-run baseline, the 1.3 KB wind-sensor codec
// of the test data on the same kind of thread. Round trips through the thread, medians of runs.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { ROOT } from '../lib/paths.mjs';
import { row } from '../lib/report.mjs';
import { median } from '../lib/stats.mjs';

const require = createRequire(import.meta.url);
const SIZE = 321_000;

/** QuickJS's WebAssembly compiled once, as CodecPool does, and handed to each thread. */
let compiled = null;

async function thread() {
  const dir = join(ROOT, 'dist/libs/platform/src/codecs');
  const { CODEC_THREAD_MARK } = require(join(dir, 'codec-worker.js'));
  compiled ??= await WebAssembly.compile(readFileSync(require.resolve('@jitl/quickjs-wasmfile-release-sync/wasm', { paths: [ROOT] })));
  const worker = new Worker(join(dir, 'codec-worker.js'), { workerData: { mark: CODEC_THREAD_MARK, compiled, watch: new SharedArrayBuffer(8) } });
  let next = 1;
  const ready = new Promise((resolve) => worker.once('message', resolve));
  const check = (script) =>
    new Promise((resolve, reject) => {
      const id = next++;
      const started = performance.now();
      worker.once('message', (m) => (m.id === id && m.result === null ? resolve(performance.now() - started) : reject(new Error(`check failed: ${m.result}`))));
      worker.postMessage({ id, op: 'check', script });
    });
  return { ready, check, stop: () => worker.terminate() };
}

export async function run(ctx) {
  const { largeCodecScript } = require(join(ROOT, 'dist/libs/platform/src/codecs/large-codec.js'));
  const large = largeCodecScript(SIZE, ROOT);
  const small = readFileSync(join(ROOT, 'test-data/lorawan-devices/vendor/example/windsensor.js'), 'utf8');
  const cold = [];
  const warm = [];
  const smallCold = [];
  const smallWarm = [];
  for (let r = 0; r < Math.max(3, ctx.runs); r++) {
    for (const [script, first, again] of [
      [large, cold, warm],
      [small, smallCold, smallWarm],
    ]) {
      const t = await thread();
      await t.ready;
      first.push(await t.check(script));
      for (let i = 0; i < 5; i++) again.push(await t.check(script));
      await t.stop();
    }
  }
  const bytes = Buffer.byteLength(large);
  return [
    row({
      figure: '11 codec load',
      measure: `check of a ${Math.round(bytes / 1000)} KB codec on a fresh codec thread (load + decodeUplink lookup)`,
      value: median(cold),
      unit: 'ms',
      baseline: median(smallCold),
      baselineLabel: '1.3 KB codec, fresh thread',
      goal: `< load deadline ${200 + Math.ceil(bytes / 1024)} ms`,
      met: median(cold) < 200 + Math.ceil(bytes / 1024),
      note: `runs ${cold.map(Math.round).join(', ')} ms`,
    }),
    row({
      figure: '11 codec load',
      measure: `the same check again on that thread (QuickJS's WebAssembly optimised)`,
      value: median(warm),
      unit: 'ms',
      baseline: median(smallWarm),
      baselineLabel: '1.3 KB codec, same thread',
      note: `ratio ${(median(warm) / median(smallWarm)).toFixed(0)}×`,
    }),
  ];
}
