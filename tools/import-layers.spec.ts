import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import * as ts from 'typescript';

/**
 * The arrows within a project point one way (docs/architecture.md, "Arrows within a project"):
 *
 * - libs/domain/src: its top-level files (eui, payload, time, text…) import no folder; `wire/`
 *   imports only those files; every other folder imports those files, `wire/` and other folders,
 *   with no cycle between folders.
 * - apps/api/src: `common/` imports nothing of `modules/`; a module never imports another module's
 *   controller; no cycle between modules.
 * - libs/ resolves no import into apps/.
 *
 * @nx/enforce-module-boundaries holds the arrows between projects; these are the ones inside them.
 */
const root = join(__dirname, '..');

/** One relative import: both files relative to the repository, with `/` separators. */
interface Edge {
  from: string;
  to: string;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' ? [] : sourceFiles(path);
    return /\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts') ? [path] : [];
  });
}

function resolveImport(fromFile: string, specifier: string): string {
  const base = resolve(dirname(fromFile), specifier);
  for (const candidate of [`${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')]) if (existsSync(candidate)) return candidate;
  return existsSync(base) && statSync(base).isFile() ? base : `${base}.ts`;
}

const repoPath = (file: string) => relative(root, file).split(sep).join('/');

/** Every relative import, `export … from`, `import()` and `require()` of the files under `dir`. */
function importEdges(dir: string): Edge[] {
  return sourceFiles(join(root, dir)).flatMap((file) =>
    ts
      .preProcessFile(readFileSync(file, 'utf8'), true, true)
      .importedFiles.filter((f) => f.fileName.startsWith('.'))
      .map((f) => ({ from: repoPath(file), to: repoPath(resolveImport(file, f.fileName)) })),
  );
}

/** Pairs of groups that import each other, directly or round a longer loop: each edge in a cycle. */
function cycleEdges(edges: readonly Edge[], group: (file: string) => string | null): string[] {
  const next = new Map<string, Set<string>>();
  for (const { from, to } of edges) {
    const a = group(from);
    const b = group(to);
    if (a !== null && b !== null && a !== b) next.set(a, (next.get(a) ?? new Set()).add(b));
  }
  const reaches = (start: string, goal: string): boolean => {
    const seen = new Set<string>();
    const stack = [start];
    while (stack.length > 0) {
      const g = stack.pop()!;
      if (g === goal) return true;
      if (seen.has(g)) continue;
      seen.add(g);
      stack.push(...(next.get(g) ?? []));
    }
    return false;
  };
  return edges.flatMap(({ from, to }) => {
    const a = group(from);
    const b = group(to);
    return a !== null && b !== null && a !== b && reaches(b, a) ? [`${from} -> ${to} (${a} and ${b} import each other)`] : [];
  });
}

const DOMAIN = 'libs/domain/src/';

/** 0: a top-level file of libs/domain/src; 1: wire/; 2: any other folder. */
function domainLayer(file: string): { layer: number; folder: string } {
  const [first, ...rest] = file.slice(DOMAIN.length).split('/');
  if (rest.length === 0) return { layer: 0, folder: '' };
  return { layer: first === 'wire' ? 1 : 2, folder: first! };
}

function domainViolations(edges: readonly Edge[]): string[] {
  // The package's index re-exports everything: it is the top, not a layer.
  const inDomain = edges.filter((e) => e.from.startsWith(DOMAIN) && e.to.startsWith(DOMAIN) && e.from !== `${DOMAIN}index.ts`);
  const upward = inDomain.flatMap(({ from, to }) => {
    const a = domainLayer(from);
    const b = domainLayer(to);
    if (b.layer <= a.layer) return [];
    const what = a.layer === 0 ? 'a top-level file of libs/domain/src imports no folder' : 'wire/ imports only the top-level files';
    return [`${from} -> ${to} (${what})`];
  });
  const folder = (file: string) => (domainLayer(file).layer === 2 ? domainLayer(file).folder : null);
  return [...upward, ...cycleEdges(inDomain, folder)];
}

const API = 'apps/api/src/';

function apiViolations(edges: readonly Edge[]): string[] {
  const inApi = edges.filter((e) => e.from.startsWith(API) && e.to.startsWith(API));
  const moduleOf = (file: string) => (file.startsWith(`${API}modules/`) ? file.split('/')[4]! : null);
  const wrong = inApi.flatMap(({ from, to }) => {
    if (from.startsWith(`${API}common/`) && to.startsWith(`${API}modules/`)) return [`${from} -> ${to} (common/ imports nothing of modules/)`];
    const a = moduleOf(from);
    const b = moduleOf(to);
    if (a !== null && b !== null && a !== b && to.endsWith('.controller.ts')) return [`${from} -> ${to} (a module never imports another module's controller)`];
    return [];
  });
  return [...wrong, ...cycleEdges(inApi, moduleOf)];
}

function libsViolations(edges: readonly Edge[]): string[] {
  return edges.filter((e) => e.from.startsWith('libs/') && e.to.startsWith('apps/')).map(({ from, to }) => `${from} -> ${to} (libs/ import nothing of apps/)`);
}

describe('arrows within a project', () => {
  it('libs/domain: top-level files, then wire/, then the other folders, with no cycle between folders', () => {
    const edges = importEdges('libs/domain/src');
    expect(edges.length).toBeGreaterThan(100); // the scan reads the imports at all
    expect(domainViolations(edges)).toEqual([]);
  });

  it('apps/api: common/ imports no module, no module imports another’s controller, no cycle between modules', () => {
    const edges = importEdges('apps/api/src');
    expect(edges.some((e) => e.from.startsWith(`${API}modules/`) && e.to.startsWith(`${API}common/`))).toBe(true);
    expect(apiViolations(edges)).toEqual([]);
  });

  it('libs/ import nothing of apps/', () => {
    expect(libsViolations(importEdges('libs'))).toEqual([]);
  });

  it('names each kind of wrong arrow', () => {
    const e = (from: string, to: string): Edge => ({ from, to });
    expect(
      domainViolations([
        e(`${DOMAIN}wire/device.ts`, `${DOMAIN}networks/simulated/index.ts`),
        e(`${DOMAIN}time.ts`, `${DOMAIN}wire/json.ts`),
        e(`${DOMAIN}alerts/rule.ts`, `${DOMAIN}integrations/device-filter.ts`),
        e(`${DOMAIN}integrations/event-body.ts`, `${DOMAIN}alerts/alert.ts`),
        // Downward and within a folder: fine.
        e(`${DOMAIN}alerts/alert.ts`, `${DOMAIN}wire/fence.ts`),
        e(`${DOMAIN}wire/uplink-mapping.ts`, `${DOMAIN}time.ts`),
        e(`${DOMAIN}alerts/alert.ts`, `${DOMAIN}alerts/rule.ts`),
        e(`${DOMAIN}index.ts`, `${DOMAIN}wire/index.ts`),
      ]),
    ).toEqual([
      `${DOMAIN}wire/device.ts -> ${DOMAIN}networks/simulated/index.ts (wire/ imports only the top-level files)`,
      `${DOMAIN}time.ts -> ${DOMAIN}wire/json.ts (a top-level file of libs/domain/src imports no folder)`,
      `${DOMAIN}alerts/rule.ts -> ${DOMAIN}integrations/device-filter.ts (alerts and integrations import each other)`,
      `${DOMAIN}integrations/event-body.ts -> ${DOMAIN}alerts/alert.ts (integrations and alerts import each other)`,
    ]);
    expect(
      apiViolations([
        e(`${API}common/openapi/openapi.ts`, `${API}modules/system/route-catalog.service.ts`),
        e(`${API}modules/series/series.controller.ts`, `${API}modules/devices/devices.controller.ts`),
        e(`${API}modules/devices/device-meta.controller.ts`, `${API}modules/devices/devices.controller.ts`),
        e(`${API}modules/series/series.service.ts`, `${API}modules/devices/device-access.service.ts`),
      ]),
    ).toEqual([
      `${API}common/openapi/openapi.ts -> ${API}modules/system/route-catalog.service.ts (common/ imports nothing of modules/)`,
      `${API}modules/series/series.controller.ts -> ${API}modules/devices/devices.controller.ts (a module never imports another module's controller)`,
    ]);
    expect(
      apiViolations([e(`${API}modules/a/a.service.ts`, `${API}modules/b/b.service.ts`), e(`${API}modules/b/b.module.ts`, `${API}modules/a/a.module.ts`)]),
    ).toHaveLength(2);
    expect(libsViolations([e('libs/jobs/src/x.ts', 'apps/api/src/main.ts')])).toEqual([
      'libs/jobs/src/x.ts -> apps/api/src/main.ts (libs/ import nothing of apps/)',
    ]);
  });
});
