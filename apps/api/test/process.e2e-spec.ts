import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { eventually, freePort } from '@dts/platform';

const root = join(__dirname, '../../..');
const main = join(root, 'dist/apps/api/src/main.js');

interface Started {
  child: ChildProcess;
  /** stdout and stderr as they came. */
  output: () => string;
  stdout: () => string;
  exited: Promise<number | null>;
}

function start(env: Record<string, string>, cwd = root, argv = [process.execPath, main]): Started {
  let output = '';
  let stdout = '';
  const [command, ...args] = argv;
  const child = spawn(command!, args, {
    cwd,
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'warn', LOG_PRETTY: 'false', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group, so that the test can tell whether anything of it is left.
    detached: true,
  });
  child.stdout!.on('data', (d) => {
    output += d;
    stdout += d;
  });
  child.stderr!.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => output, stdout: () => stdout, exited };
}

/** Whether any process of the group `pgid` (the one `start` made) still runs. */
function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitFor(condition: () => boolean | Promise<boolean>, ms: number, what: string): Promise<void> {
  await eventually(condition, { what, timeoutMs: ms, intervalMs: 50 });
}

/** Waits for the process to answer; when it never does, the failure carries what it printed. */
async function waitForVersion(port: number, deadlineMs: number, started?: Started): Promise<Response> {
  // Any answer will do (the caller looks at it): the wait is until the port listens.
  return eventually(() => fetch(`http://127.0.0.1:${port}/version`), { what: `an answer on port ${port}`, timeoutMs: deadlineMs, intervalMs: 100 }).catch(
    (error: Error) => {
      throw new Error(`${error.message}; the process printed:\n${started?.output() ?? ''}`);
    },
  );
}

/**
 * The bash blocks of the README's quick start that call the api, with the two lines a reader
 * replaces (starting the service, pasting the token) left out: the test does both itself.
 */
function readmeCurlBlocks(): string[] {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const start = readme.indexOf('## Quick start');
  const quickStart = readme.slice(start, readme.indexOf('\n## ', start + 1));
  return [...quickStart.matchAll(/```bash\n([\s\S]*?)```/g)]
    .map((m) => m[1]!)
    .filter((block) => block.includes('curl '))
    .map((block) =>
      block
        .split('\n')
        .filter((line) => !/^DEMO=1 npm start|^TOKEN=paste/.test(line))
        .join('\n'),
    );
}

/**
 * Runs one README block in bash (errexit, pipefail) in a directory holding the `photo.jpg` it may
 * upload. Every curl fails on a non-2xx answer and ends its output with a newline, so the answers
 * printed come back one JSON envelope a line.
 */
async function runReadmeBlock(block: string, port: number, token: string): Promise<unknown[]> {
  const cwd = mkdtempSync(join(tmpdir(), 'dts-readme-'));
  try {
    await sharp({ create: { width: 320, height: 240, channels: 3, background: { r: 40, g: 120, b: 60 } } })
      .jpeg()
      .toFile(join(cwd, 'photo.jpg'));
    const script = `curl() { command curl --fail-with-body "$@"; echo; }\n${block.replaceAll('localhost:3000', `localhost:${port}`)}`;
    const run = spawnSync('bash', ['-euo', 'pipefail', '-c', script], {
      cwd,
      env: { PATH: process.env.PATH ?? '', TOKEN: token },
      encoding: 'utf8',
      timeout: 60_000,
    });
    if (run.status !== 0) throw new Error(`README block failed (${run.status}):\n${block}\n${run.stdout}\n${run.stderr}`);
    return run.stdout
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as unknown);
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
}

// Each test starts the real process once or twice; on a loaded 2-core CI machine one start-up of
// the embedded database can take 15 s, so the 30 s default would fail a healthy run.
jest.setTimeout(150_000);

/** The real process as `npm start` runs it: settings, embedded database, lock, shutdown. */
describe('the service process', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'dts-process-'));
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it('starts with no settings on an empty DATA_DIR, refuses a second process on it, and stops cleanly on SIGTERM', async () => {
    const port = await freePort();
    const began = Date.now();
    const first = start({ DATA_DIR: dataDir, PORT: String(port) });
    try {
      const res = await waitForVersion(port, 60_000, first);
      const body = (await res.json()) as { success: boolean; data: { api_version: string } };
      expect(body).toMatchObject({ success: true, data: { api_version: '1' } });
      process.stdout.write(`service answered /version ${Date.now() - began} ms after start on an empty DATA_DIR\n`);
      const registered = await fetch(`http://127.0.0.1:${port}/auth/register`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ username: 'keeper', email: 'keeper@example.org', password: 'kept across restarts' }),
      });
      expect(registered.status).toBe(201);

      const second = start({ DATA_DIR: dataDir, PORT: String(await freePort()) });
      expect(await second.exited).toBe(1);
      expect(second.output()).toMatch(/DATA_DIR .* is in use by process \d+/);
    } finally {
      first.child.kill('SIGTERM');
    }
    expect(await first.exited).toBe(0);

    // The data survives: a restart on the same directory finds the account made before. It is
    // started from another working directory, as a service manager may: nothing depends on it.
    const again = start({ DATA_DIR: dataDir, PORT: String(port) }, dataDir);
    try {
      const version = (await (await waitForVersion(port, 60_000, again)).json()) as { data: { version: string } };
      expect(version.data.version).toMatch(/^\d+\.\d+\.\d+/);
      const check = await fetch(`http://127.0.0.1:${port}/auth/check`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ username: 'keeper', password: 'kept across restarts' }),
      });
      expect(((await check.json()) as { data: { valid: boolean } }).data.valid).toBe(true);
    } finally {
      again.child.kill('SIGTERM');
    }
    expect(await again.exited).toBe(0);
  });

  it('keeps every uplink it answered 202 for when killed right after (SIGKILL), and serves it after a restart', async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const json = (body: unknown, headers: Record<string, string> = {}) => ({
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
    const first = start({ DATA_DIR: dataDir, PORT: String(port) });
    let token = '';
    try {
      await waitForVersion(port, 60_000, first);
      await fetch(`${base}/auth/register`, json({ username: 'durable', email: 'durable@example.org', password: 'durable password' }));
      const login = await fetch(`${base}/auth/login`, json({ username: 'durable', password: 'durable password' }));
      const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
      await fetch(`${base}/user/token`, json({ type: 'API' }, { Cookie: cookie }));
      token = ((await (await fetch(`${base}/user/token`, { headers: { Cookie: cookie } })).json()) as { data: { hash: string }[] }).data[0]!.hash;
      expect((await fetch(`${base}/user/device/70B3D57ED00D0AB1`, json({ decoder_ref: 2 }, { Authorization: `Bearer ${token}` }))).status).toBe(201);
      const items = Array.from({ length: 200 }, (_, i) => ({
        devEUI: '70B3D57ED00D0AB1',
        port: 1,
        payload_hex: '036700E5',
        fcnt: i,
        time_stamp_unix: 1_777_636_800 + i,
      }));
      const accepted = await fetch(`${base}/ingest/rest`, json(items, { Authorization: `Bearer ${token}` }));
      expect(accepted.status).toBe(202);
      expect(((await accepted.json()) as { data: { accepted: number } }).data.accepted).toBe(200);
    } finally {
      first.child.kill('SIGKILL');
    }
    await first.exited;

    const again = start({ DATA_DIR: dataDir, PORT: String(port) });
    try {
      await waitForVersion(port, 60_000, again);
      const data = (await (await fetch(`${base}/user/device/data/70B3D57ED00D0AB1`, { headers: { Authorization: `Bearer ${token}` } })).json()) as {
        data: { temperature: number }[];
      };
      expect(data.data).toHaveLength(200);
      expect(data.data[199]!.temperature).toBe(22.9);
    } finally {
      again.child.kill('SIGTERM');
    }
    expect(await again.exited).toBe(0);
  });

  it('on SIGTERM fails readiness at once, keeps answering through the drain grace, exits 0; stdout holds JSON log records only', async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const svc = start({ DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'info', SHUTDOWN_DRAIN_GRACE_MS: '5000' });
    try {
      await waitForVersion(port, 60_000, svc);
      await waitFor(async () => (await fetch(`${base}/health/ready`)).status === 200, 30_000, 'ready');
      const signalled = Date.now();
      svc.child.kill('SIGTERM');
      // Readiness fails at once; the process still answers (a load balancer is still taking it out).
      await waitFor(async () => (await fetch(`${base}/health/ready`)).status === 503, 1_000, 'readiness 503 after SIGTERM');
      const ready = (await (await fetch(`${base}/health/ready`)).json()) as { errors: { code: string; message: string }[] };
      expect(ready.errors[0]).toMatchObject({ code: 'UNAVAILABLE', message: expect.stringContaining('shutting down') });
      const version = await fetch(`${base}/version`);
      expect({ status: version.status, connection: version.headers.get('connection') }).toEqual({ status: 200, connection: 'close' });
      // Within the drain grace (5 s: room for a loaded machine) the process still answers.
      expect(Date.now() - signalled).toBeLessThan(5_000);
    } finally {
      svc.child.kill('SIGTERM');
    }
    expect(await svc.exited).toBe(0);
    const lines = svc
      .stdout()
      .split('\n')
      .filter((line) => line !== '');
    expect(lines.length).toBeGreaterThan(3);
    for (const line of lines)
      expect({
        line,
        json: (() => {
          try {
            return typeof JSON.parse(line) === 'object';
          } catch {
            return false;
          }
        })(),
      }).toEqual({ line, json: true });
    expect(lines.some((line) => /listening on/.test(line))).toBe(true);
    expect(lines.some((line) => /SIGTERM: readiness now fails/.test(line))).toBe(true);
  });

  it.each(['SIGTERM', 'SIGINT'] as const)('`npm start` stops on %s with no process left behind', async (signal) => {
    const port = await freePort();
    // `--ignore-scripts` skips `prestart` (the build): dist/ is built once for every suite, and
    // rebuilding it here would rewrite files other suites' processes are loading.
    const npm = start({ DATA_DIR: dataDir, PORT: String(port) }, root, ['npm', 'start', '--ignore-scripts', '--silent']);
    try {
      await waitForVersion(port, 60_000, npm);
      // SIGTERM to npm alone, as a service manager sends it; SIGINT to the whole group, as Ctrl-C does.
      if (signal === 'SIGTERM') npm.child.kill('SIGTERM');
      else process.kill(-npm.child.pid!, 'SIGINT');
      // npm ends with the signal it got (exit code null), after its child has exited.
      await npm.exited;
      await waitFor(() => !groupAlive(npm.child.pid!), 15_000, 'every process of `npm start` gone');
    } finally {
      if (groupAlive(npm.child.pid!)) process.kill(-npm.child.pid!, 'SIGKILL');
    }
    await expect(fetch(`http://127.0.0.1:${port}/version`)).rejects.toThrow();
  });

  it('stops at start with one line per bad setting', async () => {
    const bad = start({ DATA_DIR: dataDir, PORT: 'eighty', LOG_LEVEL: 'chatty' });
    expect(await bad.exited).toBe(1);
    const lines = bad.output().trim().split('\n');
    expect(lines).toEqual(
      expect.arrayContaining([expect.stringMatching(/^Invalid configuration: PORT: /), expect.stringMatching(/^Invalid configuration: LOG_LEVEL: /)]),
    );
  });

  it("seeds the demo account with DEMO=1, prints a working token, and the README's curl lines work as printed", async () => {
    const port = await freePort();
    const demo = start({ DATA_DIR: dataDir, PORT: String(port), DEMO: '1' });
    try {
      await waitForVersion(port, 60_000, demo);
      await eventually(() => /token\s+[0-9a-f]{64}/.test(demo.output()), { what: 'the printed token', intervalMs: 100 }).catch(() => undefined);
      const token = /token\s+([0-9a-f]{64})/.exec(demo.output())?.[1];
      expect(token).toBeDefined();
      const me = (await (await fetch(`http://127.0.0.1:${port}/user`, { headers: { Authorization: `Bearer ${token}` } })).json()) as {
        data: { username: string };
      };
      expect(me.data.username).toBe('demo');

      // The README's quick-start curl lines, as printed but for the port, against this process.
      for (const block of readmeCurlBlocks()) {
        const answers = await runReadmeBlock(block, port, token!);
        expect(answers.length).toBeGreaterThan(0);
        for (const answer of answers) expect(answer).toMatchObject({ success: true });
      }
    } finally {
      demo.child.kill('SIGTERM');
    }
    expect(await demo.exited).toBe(0);
  });
});
