// `npm run build:packages`: libs/domain and libs/client as npm packages (CommonJS + .d.ts, like the
// workspace) in dist/packages/<name>, each ready for `npm pack`. The client is compiled against the
// domain package's declarations, not its sources, so it builds exactly as a consumer sees it.
// Options: --out <dir> (default dist/packages).
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const outArg = process.argv.indexOf('--out');
const out = outArg >= 0 ? resolve(process.argv[outArg + 1]) : join(root, 'dist', 'packages');
const rootPkg = JSON.parse(await readFile(join(root, 'package.json'), 'utf8'));

const PACKAGES = [
  { name: 'domain', options: {} },
  { name: 'client', options: { paths: { '@dts/domain': [join(out, 'domain', 'index.d.ts')] } } },
];

const host = {
  ...ts.sys,
  onUnRecoverableConfigFileDiagnostic: (d) => {
    throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
  },
};
const format = {
  getCanonicalFileName: (f) => f,
  getCurrentDirectory: () => root,
  getNewLine: () => '\n',
};

for (const { name, options } of PACKAGES) {
  const dir = join(root, 'libs', name);
  const outDir = join(out, name);
  await rm(outDir, { recursive: true, force: true });
  const parsed = ts.getParsedCommandLineOfConfigFile(join(dir, 'tsconfig.lib.json'), { ...options, outDir, noEmit: false }, host);
  const program = ts.createProgram({ rootNames: parsed.fileNames, options: parsed.options });
  const emitted = program.emit();
  const diagnostics = [...parsed.errors, ...ts.getPreEmitDiagnostics(program), ...emitted.diagnostics];
  if (diagnostics.length > 0) {
    console.error(ts.formatDiagnosticsWithColorAndContext(diagnostics, format));
    process.exit(1);
  }

  // One version for the workspace and its packages: the root's.
  const pkg = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8'));
  pkg.version = rootPkg.version;
  for (const dep of Object.keys(pkg.dependencies ?? {})) if (dep.startsWith('@dts/')) pkg.dependencies[dep] = rootPkg.version;
  const ordered = { name: pkg.name, version: pkg.version, ...pkg };
  await mkdir(outDir, { recursive: true });
  await writeFile(join(outDir, 'package.json'), `${JSON.stringify(ordered, null, 2)}\n`);
  console.log(`built ${pkg.name}@${pkg.version} into ${outDir}`);
}
