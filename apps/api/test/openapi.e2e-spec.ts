import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { API_TAGS } from '../src/common/openapi/api-tags';
import { startTestService, type TestService } from './support/harness';

/*
 * The OpenAPI document (/docs/openapi.json) as code generators take it (docs/api.md, README "OpenAPI"):
 *
 * 1. Redocly's lint with the recommended rules and redocly.yaml's additions reports nothing.
 * 2. Every operation has a declared tag (a line in API_TAGS), an operationId that reads as a method
 *    name, and 429/503 where the builder says (openapi.ts).
 * 3. The types openapi-typescript generates from the document are compiled against libs/domain's
 *    wire types: each schema whose DTO class `implements` a libs/domain type (…Wire, …Request) must
 *    be the same type both ways, member for member. A response schema without such a pairing fails
 *    too: a new route's response DTO must `implements` the wire type it stands for.
 *
 * Pinned tools (devDependencies): @redocly/cli and openapi-typescript, run from node_modules.
 */

const ROOT = join(__dirname, '../../..');
const SOURCES = join(ROOT, 'apps/api/src');
const REDOCLY = join(ROOT, 'node_modules/@redocly/cli/bin/cli.js');
const OPENAPI_TS = join(ROOT, 'node_modules/openapi-typescript/bin/cli.js');

/**
 * Request-body DTOs that no libs/domain request type stands for yet (the typed client builds those
 * bodies from looser types). Shrink this list; a new body DTO not in it must `implements` its
 * libs/domain request type.
 */
const UNPAIRED_REQUEST_BODIES = new Set([
  'CreateRuleDto',
  'UpdateRuleDto',
  'CreateIntegrationDto',
  'UpdateIntegrationDto',
  'DeleteAccountDto',
  'DeleteTokenDto',
  'ShareDeviceDto',
  'HandoverOfferDto',
  'CheckCredentialsDto',
  // Multipart forms: their file part has no JSON type (the client sends ImageUploadForm beside the bytes).
  'IngestImageForm',
  'UploadImageForm',
]);

type Json = Record<string, unknown>;
type Operation = { operationId?: string; tags?: string[]; responses: Record<string, Json>; requestBody?: Json };

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith('.ts') && !path.endsWith('.spec.ts') ? [path] : [];
  });
}

/** DTO class → the libs/domain types it `implements` (…Wire, …Request), from the api's sources. */
function pairings(): Map<string, { types: string[]; file: string }> {
  const pairs = new Map<string, { types: string[]; file: string }>();
  for (const file of sourceFiles(SOURCES)) {
    for (const m of readFileSync(file, 'utf8').matchAll(/export class (\w+)(?:\s+extends\s+[\w.<>]+)?\s+implements\s+([\w,\s]+?)\s*\{/g)) {
      const types = m[2]!
        .split(',')
        .map((t) => t.trim())
        .filter((t) => /(Wire|Request)$/.test(t));
      if (types.length > 0) pairs.set(m[1]!, { types, file: relative(ROOT, file) });
    }
  }
  return pairs;
}

/** The component schemas a value refers to, deeply. */
function refsIn(value: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const v of value) refsIn(v, found);
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k === '$ref' && typeof v === 'string') found.add(v.replace('#/components/schemas/', ''));
      else refsIn(v, found);
    }
  }
  return found;
}

describe('the OpenAPI document, as generators take it', () => {
  let svc: TestService;
  let dir: string;
  let doc: { paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, Json> }; tags: { name: string }[] };
  let file: string;
  const operations = () =>
    Object.entries(doc.paths).flatMap(([path, methods]) => Object.entries(methods).map(([method, op]) => ({ route: `${method.toUpperCase()} ${path}`, op })));

  beforeAll(async () => {
    svc = await startTestService();
    doc = (await svc.http().get('/docs/openapi.json').expect(200)).body;
    dir = mkdtempSync(join(tmpdir(), 'dts-openapi-'));
    file = join(dir, 'openapi.json');
    writeFileSync(file, JSON.stringify(doc, null, 2));
  });
  afterAll(async () => {
    await svc?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('passes Redocly’s lint (recommended rules and redocly.yaml) with no problem', () => {
    let out: string;
    try {
      out = execFileSync(process.execPath, [REDOCLY, 'lint', '--config', join(ROOT, 'redocly.yaml'), '--format', 'json', file], {
        cwd: dir,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      });
    } catch (error) {
      out = String((error as { stdout?: string }).stdout ?? '');
    }
    const report = JSON.parse(out.slice(out.indexOf('{'))) as { problems: { ruleId: string; message: string; location: { pointer: string }[] }[] };
    expect(report.problems.map((p) => `${p.ruleId} at ${p.location[0]?.pointer}: ${p.message}`)).toEqual([]);
  }, 120_000);

  it('declares every tag with a line in API_TAGS, and gives every operation an operationId that reads as a method name', () => {
    const undeclared = operations().flatMap(({ route, op }) =>
      (op.tags ?? ['(none)'])
        .filter((t) => !(t in API_TAGS))
        .map((t) => `${route} is tagged "${t}": add it to API_TAGS (apps/api/src/common/openapi/api-tags.ts)`),
    );
    expect(undeclared).toEqual([]);
    const ids = operations().map(({ route, op }) => [route, op.operationId ?? ''] as const);
    expect(ids.filter(([, id]) => !/^[a-z][a-zA-Z0-9]*$/.test(id))).toEqual([]);
    expect(new Set(ids.map(([, id]) => id)).size).toBe(ids.length);
    expect(
      Object.fromEntries(ids.filter(([route]) => ['GET /user/device', 'POST /user/device/command/{eui}', 'GET /user/fence/{uid}'].includes(route))),
    ).toEqual({
      'GET /user/device': 'listDevices',
      'POST /user/device/command/{eui}': 'createCommand',
      'GET /user/fence/{uid}': 'getFence',
    });
  });

  it('documents 429 (but on the metrics scrape) and 503 on every operation, with Retry-After', () => {
    const missing = operations().flatMap(({ route, op }) => [
      ...(route.startsWith('GET /metrics') || op.responses['429'] ? [] : [`${route}: 429`]),
      ...(op.responses['503'] ? [] : [`${route}: 503`]),
      ...['429', '503']
        .filter((s) => op.responses[s] && !(op.responses[s]!.headers as Json | undefined)?.['Retry-After'])
        .map((s) => `${route}: ${s} without Retry-After`),
    ]);
    expect(missing).toEqual([]);
  });

  it('types generated from it (openapi-typescript) are libs/domain’s wire types, member for member', () => {
    const generated = join(dir, 'openapi.d.ts');
    // Tuples from minItems/maxItems (a bbox is [x, y, w, h]); a default makes no member required (it is
    // the request's default, not a promise that answers carry it).
    execFileSync(process.execPath, [OPENAPI_TS, file, '-o', generated, '--array-length', '--default-non-nullable', 'false'], { cwd: dir, stdio: 'ignore' });
    const pairs = pairings();
    const schemas = doc.components.schemas;

    // Every response schema stands for a libs/domain type, so that the check below covers it.
    const responseSchemas = new Set<string>();
    const bodySchemas = new Map<string, string>();
    for (const { route, op } of operations()) {
      for (const [status, response] of Object.entries(op.responses)) if (status.startsWith('2')) for (const r of refsIn(response)) responseSchemas.add(r);
      for (const r of refsIn(op.requestBody ?? {})) bodySchemas.set(r, route);
    }
    // A schema nested in a paired one is compared with it, member for member: only the top ones need a pairing.
    const unpaired = [
      ...[...responseSchemas].filter((s) => !pairs.has(s)).map((s) => `${s} (a response) implements no libs/domain …Wire type`),
      ...[...bodySchemas]
        .filter(([s]) => !pairs.has(s) && !UNPAIRED_REQUEST_BODIES.has(s))
        .map(([s, route]) => `${s} (the body of ${route}) implements no libs/domain …Request type`),
    ];
    expect(unpaired).toEqual([]);

    // Both ways, member for member: a member missing, added, typed or made optional differently fails, naming it.
    const checked = [...pairs].filter(([schema]) => schema in schemas);
    const lines = checked.flatMap(([schema, { types }]) =>
      types.map((wire) =>
        [
          `// ${schema} ⇄ ${wire}`,
          `export const w_${schema}_${wire}: D.${wire} = null as unknown as S['${schema}'];`,
          `export const s_${schema}_${wire}: S['${schema}'] = null as unknown as D.${wire};`,
          `export const extra_${schema}_${wire}: [never] = [null as unknown as Exclude<keyof S['${schema}'], keyof D.${wire}>];`,
          `export const missing_${schema}_${wire}: [never] = [null as unknown as Exclude<keyof D.${wire}, keyof S['${schema}']>];`,
        ].join('\n'),
      ),
    );
    const check = join(dir, 'drift.ts');
    writeFileSync(
      check,
      [`import type * as D from '@dts/domain';`, `import type { components } from './openapi';`, `type S = components['schemas'];`, ...lines].join('\n'),
    );
    const base = ts.readConfigFile(join(ROOT, 'tsconfig.base.json'), ts.sys.readFile).config as { compilerOptions: Json };
    const { options } = ts.convertCompilerOptionsFromJson({ ...base.compilerOptions, noEmit: true, strict: true, skipLibCheck: true }, ROOT);
    const program = ts.createProgram([check], { ...options, baseUrl: ROOT, rootDir: undefined, types: [], noEmit: true });
    const drift = ts
      .getPreEmitDiagnostics(program)
      .filter((d) => d.file?.fileName === check)
      .map((d) => {
        // Each pair is a block of five lines after the three of the head, its first line naming it.
        const line = d.file!.getLineAndCharacterOfPosition(d.start ?? 0).line;
        const pair = /^\/\/ (.*)$/.exec(d.file!.text.split('\n')[3 + Math.floor((line - 3) / 5) * 5] ?? '')?.[1] ?? '?';
        return `${pair}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`;
      });
    expect({ pairs: checked.length, drift }).toEqual({ pairs: checked.length, drift: [] });
    expect(checked.length).toBeGreaterThan(70);
  }, 120_000);
});
