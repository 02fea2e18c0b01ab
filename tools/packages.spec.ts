import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';

/**
 * `npm run build:packages` makes @dts/domain and @dts/client installable: packed, installed into an
 * empty project offline with an empty npm cache (so they need nothing but the client's one
 * dependency, eventsource-parser, packed here from the workspace's copy), required from plain Node
 * and type-checked from TypeScript.
 */

const root = join(__dirname, '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const rootVersion = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;
/** The Server-Sent Events parser the client reads live feeds with, as the workspace pins it. */
const sseVersion = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { dependencies: Record<string, string> }).dependencies[
  'eventsource-parser'
];

function run(cmd: string, args: string[], cwd: string): string {
  try {
    return execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, npm_config_update_notifier: 'false' } });
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(`${cmd} ${args.join(' ')} failed in ${cwd}:\n${e.stdout ?? ''}\n${e.stderr ?? e.message}`);
  }
}

function jsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) return name === 'node_modules' ? [] : jsFiles(full);
    return name.endsWith('.js') ? [full] : [];
  });
}

/** Every module specifier a package's compiled code requires that is not inside itself. */
function externalRequires(dir: string): string[] {
  const found = new Set<string>();
  for (const file of jsFiles(dir)) {
    for (const [, spec] of readFileSync(file, 'utf8').matchAll(/require\("([^"]+)"\)/g))
      if (!spec!.startsWith('.')) found.add(`${relative(dir, file)}: ${spec}`);
  }
  return [...found];
}

describe('npm packages @dts/domain and @dts/client', () => {
  const work = mkdtempSync(join(tmpdir(), 'dts-packages-'));
  const out = join(work, 'packages');
  const consumer = join(work, 'consumer');
  let tarballs: { domain: string; client: string; sse: string };

  beforeAll(() => {
    run(process.execPath, [join(root, 'tools/build-packages.mjs'), '--out', out], root);
    const packed = (name: string) =>
      run(npm, ['pack', join(out, name), '--pack-destination', work, '--silent'], work)
        .trim()
        .split('\n')
        .pop()!;
    const sse = run(npm, ['pack', join(root, 'node_modules/eventsource-parser'), '--pack-destination', work, '--silent'], work)
      .trim()
      .split('\n')
      .pop()!;
    tarballs = { domain: join(work, packed('domain')), client: join(work, packed('client')), sse: join(work, sse) };
  }, 180_000);
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('are versioned as the workspace, the client depending on the same domain version', () => {
    const domain = JSON.parse(readFileSync(join(out, 'domain/package.json'), 'utf8'));
    const client = JSON.parse(readFileSync(join(out, 'client/package.json'), 'utf8'));
    expect({ name: domain.name, version: domain.version, dependencies: domain.dependencies }).toEqual({
      name: '@dts/domain',
      version: rootVersion,
      dependencies: undefined,
    });
    expect({ name: client.name, version: client.version, dependencies: client.dependencies }).toEqual({
      name: '@dts/client',
      version: rootVersion,
      dependencies: { '@dts/domain': rootVersion, 'eventsource-parser': sseVersion },
    });
  });

  it('require nothing at run time but themselves (the client: @dts/domain and eventsource-parser at most)', () => {
    expect(externalRequires(join(out, 'domain'))).toEqual([]);
    expect(externalRequires(join(out, 'client')).filter((r) => !r.endsWith(': @dts/domain') && !r.endsWith(': eventsource-parser'))).toEqual([]);
  });

  it('leave the demo content out: @dts/domain holds wire types and pure functions only', () => {
    const dir = join(out, 'domain');
    expect(jsFiles(dir).filter((f) => /demo/i.test(relative(dir, f)))).toEqual([]);
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const exported = Object.keys(require(dir) as object);
    expect(exported.filter((name) => /demo|vondelpark|prng/i.test(name))).toEqual([]);
  });

  it('install offline from their tarballs alone, load in Node and type-check in TypeScript', () => {
    mkdirSync(consumer);
    writeFileSync(join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', version: '1.0.0', private: true }));
    // An empty cache: anything the tarballs needed from a registry would fail the install.
    run(
      npm,
      ['install', '--offline', '--no-audit', '--no-fund', '--cache', join(work, 'empty-cache'), tarballs.domain, tarballs.client, tarballs.sse],
      consumer,
    );
    expect(readdirSync(join(consumer, 'node_modules/@dts')).sort()).toEqual(['client', 'domain']);

    const script = `
      const { normalizeEui, cayenneLppDecoder, ERROR_STATUS } = require('@dts/domain');
      const { DeviceTelemetryClient, ApiError, CLIENT_ROUTES } = require('@dts/client');
      const envelope = (status, data, errors = []) =>
        new Response(JSON.stringify({ errors, debug: [], meta: [], messages: [], data, success: errors.length === 0 }), { status, headers: { 'content-type': 'application/json' } });
      const calls = [];
      const fetch = async (url, init) => {
        calls.push(init.method + ' ' + url + ' ' + init.headers.Authorization);
        return url.endsWith('/user/device') ? envelope(200, ['70B3D57ED0000001']) : envelope(404, null, [{ code: 'NOT_FOUND', message: 'no such device', field: 'eui' }]);
      };
      (async () => {
        const decoded = cayenneLppDecoder(Uint8Array.from([1, 0x67, 0x00, 0xd7]), 1);
        const client = new DeviceTelemetryClient({ baseUrl: 'http://telemetry.invalid/', token: 't0k', fetch });
        const list = await client.devices.list();
        const error = await client.meta.get('70-b3-d5-7e-d0-00-00-01').catch((e) => e);
        console.log(JSON.stringify({
          eui: normalizeEui('70-b3-d5-7e-d0-00-00-01'),
          temperature: decoded.measurements.temperature,
          notFound: ERROR_STATUS.NOT_FOUND,
          routes: CLIENT_ROUTES.length,
          list,
          error: { isApiError: error instanceof ApiError, status: error.status, code: error.code, field: error.field },
          calls,
        }));
      })().catch((e) => { console.error(e); process.exit(1); });
    `;
    const result = JSON.parse(run(process.execPath, ['-e', script], consumer));
    expect(result).toEqual({
      eui: '70B3D57ED0000001',
      temperature: 21.5,
      notFound: 404,
      routes: expect.any(Number),
      list: ['70B3D57ED0000001'],
      error: { isApiError: true, status: 404, code: 'NOT_FOUND', field: 'eui' },
      calls: ['GET http://telemetry.invalid/user/device Bearer t0k', 'GET http://telemetry.invalid/user/device/meta/70-b3-d5-7e-d0-00-00-01 Bearer t0k'],
    });
    expect(result.routes).toBeGreaterThan(50);

    writeFileSync(
      join(consumer, 'use.ts'),
      `import { ApiError, DeviceTelemetryClient, type LiveEvent } from '@dts/client';
import { type DeviceMetaWire, type ErrorCode, normalizeEui } from '@dts/domain';

const client = new DeviceTelemetryClient({ baseUrl: 'http://localhost:3000', token: 'x' });
export async function register(): Promise<DeviceMetaWire> {
  const eui = normalizeEui('70B3D57ED0000001');
  if (!eui) throw new Error('bad EUI');
  return client.devices.register(eui, { label: 'Trap 1' });
}
export function codeOf(e: unknown): ErrorCode | undefined {
  return e instanceof ApiError ? e.code : undefined;
}
export async function firstUplink(eui: string): Promise<number | null> {
  for await (const event of client.uplinks.live(eui)) {
    const e: LiveEvent = event;
    if (e.event === 'uplink') return e.data.uplink.uid;
  }
  return null;
}
// @ts-expect-error: not one of the error codes
export const wrong: ErrorCode = 'NO_SUCH_CODE';
// @ts-expect-error: register takes an EUI string, not a number
void client.devices.register(42);
`,
    );
    writeFileSync(
      join(consumer, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          noEmit: true,
          target: 'ES2022',
          module: 'nodenext',
          lib: ['ES2023'],
          types: ['node'],
          typeRoots: [join(root, 'node_modules/@types')],
          skipLibCheck: false,
        },
        files: ['use.ts'],
      }),
    );
    run(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', consumer], consumer);
  }, 180_000);
});
