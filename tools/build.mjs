// Compiles apps/ and libs/ to dist/ with swc (about a second, where tsc takes tens): `npm start`
// must answer within seconds on a fresh clone. Type checking is `npm run typecheck`, run by CI.
// Then the web console with Vite into dist/console, only when its inputs changed
// (tools/build-console.mjs); `--force-console` rebuilds it anyway.
import { transformFile } from '@swc/core';
import { execSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildConsole } from './build-console.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'dist');
const swcrc = JSON.parse(await readFile(join(root, '.swcrc'), 'utf8'));
delete swcrc.$schema;
swcrc.jsc.baseUrl = root; // swc wants an absolute base for rewriting the @dts/* aliases

const isSource = (f) => f.endsWith('.ts') && !/\.(spec|int-spec|e2e-spec|d)\.ts$/.test(f);

async function* walk(dir) {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) {
      // apps/console is the browser app: Vite builds it (below), not swc.
      if (entry.name !== 'test' && entry.name !== 'node_modules' && full !== join(root, 'apps', 'console')) yield* walk(full);
    } else if (isSource(entry.name)) yield full;
  }
}

// Compiled into a staging folder of this process, then swapped in part by part with renames: a
// build running beside others (two jest runs each building in their global setup) or beside a
// service started from dist/ never leaves anyone a half-written or missing dist/apps.
// dist/console is the console's own output, kept when it is still current.
const staging = join(out, `.staging-${process.pid}`);
await rm(staging, { recursive: true, force: true });
let count = 0;
for (const top of ['apps', 'libs']) {
  for await (const file of walk(join(root, top))) {
    const target = join(out, relative(root, file)).replace(/\.ts$/, '.js');
    const staged = join(staging, relative(out, target));
    const { code, map } = await transformFile(file, { ...swcrc, filename: file, swcrc: false, sourceFileName: relative(dirname(target), file) });
    await mkdir(dirname(staged), { recursive: true });
    await writeFile(staged, `${code}\n//# sourceMappingURL=${target.split('/').pop()}.map\n`);
    if (map) await writeFile(`${staged}.map`, map);
    count++;
  }
}
for (const part of ['apps', 'libs']) {
  const old = join(out, `.old-${process.pid}-${part}`);
  if (existsSync(join(out, part))) await rename(join(out, part), old);
  await rename(join(staging, part), join(out, part));
  await rm(old, { recursive: true, force: true });
}
await rm(join(out, 'packages'), { recursive: true, force: true });

let commit = process.env.GIT_COMMIT ?? null;
if (!commit) {
  try {
    commit = execSync('git rev-parse --short HEAD', { cwd: root, stdio: ['ignore', 'pipe', 'ignore'] })
      .toString()
      .trim();
  } catch {
    commit = null;
  }
}
const pkg = JSON.parse(await readFile(join(root, 'package.json'), 'utf8'));
await writeFile(join(staging, 'build-info.json'), JSON.stringify({ version: pkg.version, commit }, null, 2));
await rename(join(staging, 'build-info.json'), join(out, 'build-info.json'));
await rm(staging, { recursive: true, force: true });
const kB = (bytes) => `${Math.round(bytes / 1024)} KiB`;
const consoleBuild = await buildConsole(root, { force: process.argv.includes('--force-console') });

// The embedded database's template (initdb and every migration done once; see
// libs/persistence/src/embedded/embedded-template.ts): made when this PGlite and these migrations
// have none yet, so that a new DATA_DIR starts in about a second instead of initdb's five to eight.
const template = createRequire(import.meta.url)(join(out, 'libs/persistence/src/embedded/embedded-template.js'));
const templateStart = performance.now();
const hadTemplate = existsSync(template.embeddedTemplatePath());
const templatePath = hadTemplate ? template.embeddedTemplatePath() : await template.ensureEmbeddedTemplate();
console.log(
  `built ${count} files into dist/; console ${consoleBuild.built ? `built into dist/console in ${(consoleBuild.ms / 1000).toFixed(1)} s (${kB(consoleBuild.sizes.raw)} of text assets, ${kB(consoleBuild.sizes.br)} brotli, ${kB(consoleBuild.sizes.gz)} gzip)` : 'unchanged (dist/console is current)'}; ` +
    `embedded database template ${hadTemplate ? 'current' : templatePath ? `made in ${((performance.now() - templateStart) / 1000).toFixed(1)} s` : 'not made (another process is making it, or the cache is read-only)'}`,
);
