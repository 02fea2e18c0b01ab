import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = join(__dirname, '../../..');
const main = join(root, 'dist/apps/api/src/main.js');

interface Started {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

function start(env: Record<string, string>): Started {
  let output = '';
  const child = spawn(process.execPath, [main], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'warn', LOG_PRETTY: 'false', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

async function waitForVersion(port: number, deadlineMs: number): Promise<Response> {
  const until = Date.now() + deadlineMs;
  for (;;) {
    try {
      return await fetch(`http://127.0.0.1:${port}/version`);
    } catch (error) {
      if (Date.now() > until) throw error;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

/** The real process as `npm start` runs it: settings, embedded database, lock, shutdown. */
describe('the service process', () => {
  let dataDir: string;
  beforeAll(() => {
    execFileSync(process.execPath, [join(root, 'tools/build.mjs')], { cwd: root, stdio: 'ignore' });
  });
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'dts-process-'));
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it('starts with no settings on an empty DATA_DIR, refuses a second process on it, and stops cleanly on SIGTERM', async () => {
    const port = 39_000 + (process.pid % 1000);
    const began = Date.now();
    const first = start({ DATA_DIR: dataDir, PORT: String(port) });
    try {
      const res = await waitForVersion(port, 60_000);
      const body = (await res.json()) as { success: boolean; data: { api_version: string } };
      expect(body).toMatchObject({ success: true, data: { api_version: '1' } });
      process.stdout.write(`service answered /version ${Date.now() - began} ms after start on an empty DATA_DIR\n`);
      const registered = await fetch(`http://127.0.0.1:${port}/auth/register`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ username: 'keeper', email: 'keeper@example.org', password: 'kept across restarts' }),
      });
      expect(registered.status).toBe(201);

      const second = start({ DATA_DIR: dataDir, PORT: String(port + 1) });
      expect(await second.exited).toBe(1);
      expect(second.output()).toMatch(/DATA_DIR .* is in use by process \d+/);
    } finally {
      first.child.kill('SIGTERM');
    }
    expect(await first.exited).toBe(0);

    // The data survives: a restart on the same directory finds the account made before.
    const again = start({ DATA_DIR: dataDir, PORT: String(port) });
    try {
      await waitForVersion(port, 60_000);
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

  it('stops at start with one line per bad setting', async () => {
    const bad = start({ DATA_DIR: dataDir, PORT: 'eighty', LOG_LEVEL: 'chatty' });
    expect(await bad.exited).toBe(1);
    const lines = bad.output().trim().split('\n');
    expect(lines).toEqual(expect.arrayContaining([expect.stringMatching(/^Invalid configuration: PORT: /), expect.stringMatching(/^Invalid configuration: LOG_LEVEL: /)]));
  });

  it('seeds the demo account with DEMO=1 and prints a working token', async () => {
    const port = 40_000 + (process.pid % 1000);
    const demo = start({ DATA_DIR: dataDir, PORT: String(port), DEMO: '1' });
    try {
      await waitForVersion(port, 60_000);
      const until = Date.now() + 10_000;
      while (!/token\s+[0-9a-f]{64}/.test(demo.output()) && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
      const token = /token\s+([0-9a-f]{64})/.exec(demo.output())?.[1];
      expect(token).toBeDefined();
      const me = (await (await fetch(`http://127.0.0.1:${port}/user`, { headers: { Authorization: `Bearer ${token}` } })).json()) as { data: { username: string } };
      expect(me.data.username).toBe('demo');
    } finally {
      demo.child.kill('SIGTERM');
    }
    expect(await demo.exited).toBe(0);
  });
});
