// Builds the web console (apps/console) with Vite into dist/console, unless the output is newer
// than every input: `npm start` runs the build each time, and a console that did not change must
// not cost seconds of start-up. `--force` builds anyway.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

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

export function buildConsole(root, { force = false } = {}) {
  if (!force && !consoleStale(root)) return { built: false };
  const started = performance.now();
  const vite = join(root, 'node_modules', 'vite', 'bin', 'vite.js');
  const run = spawnSync(process.execPath, [vite, 'build', '--config', join(root, 'apps/console/vite.config.mts'), '--logLevel', 'warn'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, VITE_CONFIG_NATIVE_IGNORE_WARNING: 'true' },
  });
  if (run.status !== 0) throw new Error('the console build failed');
  return { built: true, ms: performance.now() - started };
}
