// Child processes and clean-up: everything the bench starts or creates registers an undo here, and
// the undos run (newest first) when the bench ends, fails or is interrupted.
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';

const cleanups = [];

/** Registers an undo; returns a function that runs it now (once) and unregisters it. */
export function onCleanup(label, fn) {
  const entry = { label, fn, done: false };
  cleanups.push(entry);
  return async () => {
    if (entry.done) return;
    entry.done = true;
    cleanups.splice(cleanups.indexOf(entry), 1);
    await fn();
  };
}

export async function cleanupAll() {
  while (cleanups.length) {
    const entry = cleanups.pop();
    if (entry.done) continue;
    entry.done = true;
    try {
      await entry.fn();
    } catch (error) {
      console.error(`clean-up "${entry.label}" failed: ${error.message}`);
    }
  }
}

let interrupted = false;
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    if (interrupted) process.exit(130);
    interrupted = true;
    console.error(`\n${signal}: cleaning up…`);
    cleanupAll().finally(() => process.exit(130));
  });
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** A free TCP port on loopback. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/**
 * Spawns a Node script as a tracked child. stdout is discarded (the api logs there), stderr is kept
 * (its last 8 KB) to explain a failed start.
 */
export function spawnNode(label, args, { env, cwd }) {
  const child = spawn(process.execPath, args, { cwd, env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    stderr = (stderr + chunk).slice(-8192);
  });
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const stop = onCleanup(`stop ${label} (pid ${child.pid})`, async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(timer);
  });
  return { child, pid: child.pid, exited, stop, stderr: () => stderr };
}

/** Polls `url` until it answers 200; returns the milliseconds it took. Fails if the child exits. */
export async function waitForHttp(url, proc, { timeoutMs = 120_000, intervalMs = 20 } = {}) {
  const started = performance.now();
  let exited = null;
  proc.exited.then((e) => (exited = e));
  while (performance.now() - started < timeoutMs) {
    if (exited) throw new Error(`process exited (${exited.code ?? exited.signal}) before answering ${url}:\n${proc.stderr()}`);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
      await res.arrayBuffer();
      if (res.status === 200) return performance.now() - started;
    } catch {
      // not listening yet
    }
    await sleep(intervalMs);
  }
  throw new Error(`${url} did not answer 200 within ${timeoutMs} ms:\n${proc.stderr()}`);
}
