import { eventually } from '@dts/platform';
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

/**
 * Real processes for the process-level suites (deployment, faults, abuse limits): the api and the
 * worker from dist/ (built once by jest's global setup), nginx with deploy/nginx.conf, and the
 * services they talk to.
 */

export const root = join(__dirname, '../../../..');
export const API_MAIN = join(root, 'dist/apps/api/src/main.js');
export const WORKER_MAIN = join(root, 'dist/apps/worker/src/main.js');
export const MIGRATE_MAIN = join(root, 'dist/libs/persistence/src/cli/migrate.js');

export interface Proc {
  name: string;
  child: ChildProcess;
  /** The tail of what it printed (stdout and stderr), to say why it died. */
  output: () => string;
  /** The exit code, or -1 when a signal ended it. */
  exited: Promise<number | null>;
}

export function startProcess(name: string, command: string, args: string[], env: Record<string, string>): Proc {
  let output = '';
  const child = spawn(command, args, { cwd: root, env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  // The tail only: enough to say why a process died, bounded for a long access log.
  const keep = (d: Buffer) => (output = (output + d.toString('utf8')).slice(-64_000));
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code, signal) => resolve(code ?? (signal ? -1 : null))));
  return { name, child, output: () => output, exited };
}

/** Waits until `url` answers 200; fails with the process's output when it exits or the time runs out. */
export async function waitReady(url: string, proc: Proc, ms = 45_000): Promise<void> {
  let dead = false;
  void proc.exited.then(() => (dead = true));
  const outcome = await eventually(
    async () => {
      if (dead) return 'exited' as const;
      const status = (await fetch(url)).status;
      if (status !== 200) throw new Error(`answered ${status}`);
      return 'ready' as const;
    },
    { what: `${proc.name} to answer 200 at ${url}`, timeoutMs: ms, intervalMs: 150 },
  ).catch((error: Error) => {
    throw new Error(`${error.message}:\n${proc.output()}`);
  });
  if (outcome === 'exited') throw new Error(`${proc.name} did not become ready at ${url} (it exited):\n${proc.output()}`);
}

/** Waits for a process to exit, at most `ms`; true when it did. */
export async function exitedWithin(proc: Proc, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const stopped = await Promise.race([proc.exited.then(() => true), new Promise<false>((r) => (timer = setTimeout(() => r(false), ms)))]);
  clearTimeout(timer);
  return stopped;
}

/** Stops processes last-started first: nginx gently (its workers outlive a SIGKILLed master), the rest with SIGKILL. */
export async function stopProcesses(procs: Proc[]): Promise<void> {
  for (const p of [...procs].reverse()) {
    if (p.child.exitCode !== null || p.child.signalCode !== null) continue;
    p.child.kill(p.name === 'nginx' ? 'SIGQUIT' : 'SIGKILL');
    if (await exitedWithin(p, 5_000)) continue;
    p.child.kill('SIGKILL');
    await p.exited;
  }
}

/** The environment docker-compose.yml gives a service, `<<` merges applied. */
/**
 * The `.env` an operator writes beside docker-compose.yml: its required variables (`${NAME:?…}`),
 * generated once per test process so that every process of a topology shares them.
 */
export const COMPOSE_VARIABLES: Record<string, string> = Object.fromEntries(
  ['POSTGRES_PASSWORD', 'INGEST_SECRET', 'TOKEN_ENCRYPTION_KEY', 'SESSION_SECRET', 'METRICS_TOKEN'].map((name) => [name, randomBytes(32).toString('hex')]),
);

/** docker-compose.yml's text with `${NAME}`, `${NAME:?message}` and `${NAME:-default}` replaced as compose does. */
export function interpolateCompose(text: string, variables: Record<string, string>): string {
  return text.replace(/\$\{([A-Z0-9_]+)(?:(:\?|:-)([^}]*))?\}/g, (_all, name: string, op: string | undefined, arg: string | undefined) => {
    const value = variables[name];
    if (value) return value;
    if (op === ':-') return arg ?? '';
    throw new Error(`docker-compose.yml needs ${name}${op === ':?' ? `: ${arg}` : ''}`);
  });
}

export function composeEnvironment(service: string): Record<string, string> {
  const compose = parse(interpolateCompose(readFileSync(join(root, 'docker-compose.yml'), 'utf8'), COMPOSE_VARIABLES), { merge: true }) as {
    services: Record<string, { environment?: Record<string, unknown> }>;
  };
  const env = compose.services[service]?.environment;
  if (!env) throw new Error(`docker-compose.yml has no environment for ${service}`);
  return Object.fromEntries(Object.entries(env).map(([k, v]) => [k, String(v)]));
}

/** The INGEST_SECRET docker-compose.yml gives the API: what the suites running its processes send to /ingest. */
export function composeIngestSecret(): string {
  const secret = composeEnvironment('api-1').INGEST_SECRET;
  if (!secret) throw new Error('docker-compose.yml gives api-1 no INGEST_SECRET');
  return secret;
}

export function findNginx(): string | null {
  const known = ['/usr/sbin/nginx', '/usr/local/sbin/nginx', '/usr/local/nginx/sbin/nginx'].find((p) => existsSync(p));
  if (known) return known;
  const found = spawnSync('sh', ['-c', 'command -v nginx'], { encoding: 'utf8' });
  return found.status === 0 && found.stdout.trim() ? found.stdout.trim() : null;
}

/**
 * deploy/nginx.conf as shipped, with the compose host names and port swapped for loopback ports and
 * nginx's scratch paths moved into `prefix`. Each replaced line must be there exactly once, so the
 * file cannot drift away from what the tests run.
 */
export function renderNginxConf(prefix: string, listen: number, api1: number, api2: number): string {
  let conf = readFileSync(join(root, 'deploy/nginx.conf'), 'utf8');
  const replace = (pattern: RegExp, by: string) => {
    const hits = conf.match(new RegExp(pattern.source, 'gm'))?.length ?? 0;
    if (hits !== 1) throw new Error(`deploy/nginx.conf: expected ${pattern} exactly once, found it ${hits} times`);
    conf = conf.replace(new RegExp(pattern.source, 'm'), by);
  };
  replace(/^(\s*)server api-1:3000\b/, `$1server 127.0.0.1:${api1}`);
  replace(/^(\s*)server api-2:3000\b/, `$1server 127.0.0.1:${api2}`);
  replace(/^(\s*)listen 80;/, `$1listen 127.0.0.1:${listen};`);
  replace(/^(\s*)access_log \S+ dts;/, `$1access_log ${join(prefix, 'access.log')} dts;`);
  // nginx serves the console's assets from this checkout's build, as it would from its image's copy.
  replace(/^(\s*)root \/usr\/share\/dts;/, `$1root ${join(root, 'dist')};`);
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((t) => `  ${t}_temp_path ${join(prefix, 'temp', t)};`).join('\n');
  replace(/^http \{$/, `http {\n${temp}`);
  return conf;
}

/** The arguments that run nginx in the foreground with a rendered config under `prefix`. */
export function nginxArgs(prefix: string, conf: string): string[] {
  return ['-p', prefix, '-c', conf, '-e', join(prefix, 'error.log'), '-g', `daemon off; pid ${join(prefix, 'nginx.pid')};`];
}
