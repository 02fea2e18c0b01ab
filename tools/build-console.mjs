// Builds the web console (apps/console) with Vite into dist/console, unless the output is newer
// than every input: `npm start` runs the build each time, and a console that did not change must
// not cost seconds of start-up. `--force` builds anyway. Then the build's source maps move to
// dist/console-maps (served only when CONSOLE_SOURCE_MAPS says so) and every text asset gets its
// brotli and gzip forms beside it (`index-….js.br`, `.gz`), compressed once here rather than on
// each request: the api and nginx (gzip_static) send them as they are.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

/** What the console is made of: its sources, the two libraries it imports, the lock file. */
const INPUTS = ['apps/console', 'libs/domain/src', 'libs/client/src', 'package-lock.json'];
export const STAMP = 'dist/console/index.html';

function newestMtime(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path)) {
    if (entry === 'node_modules') continue;
    newest = Math.max(newest, newestMtime(join(path, entry)));
  }
  return newest;
}

/** Whether dist/console is older than any input (or missing). */
export function consoleStale(root) {
  const stamp = join(root, STAMP);
  if (!existsSync(stamp)) return true;
  const built = statSync(stamp).mtimeMs;
  return INPUTS.some((input) => existsSync(join(root, input)) && newestMtime(join(root, input)) > built);
}

/** Where the source maps go: outside dist/console, which the api and nginx serve as it is. */
export const MAPS = 'dist/console-maps';
/** Text assets worth compressing ahead; fonts (woff2) and images are compressed already. */
const PRECOMPRESS = /\.(js|mjs|css|svg|json|html|txt)$/;
/** A form is kept only if it saves at least this share: a few bytes saved are not worth a file. */
const MIN_SAVING = 0.1;
/**
 * Brotli's quality 10, not 11: measured on this console's 1.5 MB of scripts and styles, 11 saves
 * another 8 KB (2%; 1 KB of the 70 KB main bundle) and takes three times as long (7 s against 2.5 s
 * of CPU on a loaded 2-core machine), which `npm start` would pay after every console change.
 */
const BROTLI_QUALITY = 10;

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/** Moves the maps out of the served tree; writes each text asset's .br and .gz forms. Sizes for the report. */
export async function finishConsole(root) {
  const dir = join(root, 'dist/console');
  const maps = join(root, MAPS);
  await rm(maps, { recursive: true, force: true });
  const totals = { files: 0, raw: 0, br: 0, gz: 0, maps: 0 };
  const jobs = [];
  for (const sub of ['', 'assets']) {
    if (!existsSync(join(dir, sub))) continue;
    for (const name of await readdir(join(dir, sub))) {
      const path = join(dir, sub, name);
      if (name.endsWith('.map')) {
        await mkdir(join(maps, sub), { recursive: true });
        await rename(path, join(maps, sub, name));
        totals.maps++;
        continue;
      }
      if (!PRECOMPRESS.test(name) || !(await stat(path)).isFile()) continue;
      jobs.push(
        (async () => {
          const bytes = await readFile(path);
          const [br, gz] = await Promise.all([
            brotli(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } }),
            gzipped(bytes, { level: 9 }),
          ]);
          totals.files++;
          totals.raw += bytes.length;
          for (const [ext, form] of [
            ['br', br],
            ['gz', gz],
          ]) {
            if (form.length > bytes.length * (1 - MIN_SAVING)) continue;
            await writeFile(`${path}.${ext}`, form);
            totals[ext] += form.length;
          }
        })(),
      );
    }
  }
  await Promise.all(jobs);
  return totals;
}

/**
 * One console build at a time on this checkout (a directory made atomically is the lock): two jest
 * runs, each building in its global setup, were seen to write dist/console under each other. The
 * second waits, then finds the console current. A lock left by a killed build is taken after 10 min.
 */
async function withBuildLock(root, build) {
  const lock = join(root, 'dist/.console-build-lock');
  await mkdir(join(root, 'dist'), { recursive: true });
  for (;;) {
    try {
      await mkdir(lock);
      break;
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
      const age = Date.now() - (await stat(lock).catch(() => ({ mtimeMs: Date.now() }))).mtimeMs;
      if (age > 10 * 60_000) await rm(lock, { recursive: true, force: true });
      else await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  try {
    return await build();
  } finally {
    await rm(lock, { recursive: true, force: true });
  }
}

export async function buildConsole(root, { force = false } = {}) {
  if (!force && !consoleStale(root)) return { built: false };
  return withBuildLock(root, () => (!force && !consoleStale(root) ? { built: false } : viteBuild(root)));
}

async function viteBuild(root) {
  const started = performance.now();
  const vite = join(root, 'node_modules', 'vite', 'bin', 'vite.js');
  const run = spawnSync(process.execPath, [vite, 'build', '--config', join(root, 'apps/console/vite.config.mts'), '--logLevel', 'warn'], {
    cwd: root,
    stdio: 'inherit',
    // Always the production build: the console in dist/ is what `npm start` and the image serve, and a
    // build made under NODE_ENV=test (jest's global setup) was React's development bundle, 453 kB
    // instead of 256 kB, kept afterwards because its sources had not changed.
    env: { ...process.env, NODE_ENV: 'production', VITE_CONFIG_NATIVE_IGNORE_WARNING: 'true' },
  });
  if (run.status !== 0) throw new Error('the console build failed');
  let sizes;
  try {
    sizes = await finishConsole(root);
  } catch (error) {
    // Half finished (maps in the served tree, forms missing) must not pass for current next time.
    await rm(join(root, STAMP), { force: true });
    throw error;
  }
  return { built: true, ms: performance.now() - started, sizes };
}
