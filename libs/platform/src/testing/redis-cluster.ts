import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Cluster, Redis } from 'ioredis';
import { pause } from './eventually';
import { freePort } from './ports';

/**
 * A Redis Cluster of the test's own on this machine: `masters` redis-server processes with
 * `--cluster-enabled yes` on free loopback ports, in a temporary directory, joined by
 * `redis-cli --cluster create … --cluster-replicas 0`. For the suites that prove the service on a
 * cluster (docs/architecture.md, "Redis Cluster"); Debian's redis-server 7 and redis-cli.
 */
export interface LocalRedisCluster {
  readonly nodes: readonly { host: string; port: number }[];
  /** What REDIS_CLUSTER_NODES is set to for the service (credentials included when there is a password). */
  readonly setting: string;
  readonly password: string | null;
  /** With `tls`: the CA that signed the nodes' certificate (NODE_EXTRA_CA_CERTS for a process of the service). */
  readonly caFile: string | null;
  /** A client of the test's own (the caller disconnects it). */
  client(): Cluster;
  /** A client of one node alone: per-node facts (DBSIZE, INFO, which keys it holds). */
  node(port: number): Redis;
  /** Kills one node (SIGKILL, as a crash): its slots go unserved, the cluster state turns to fail. */
  killNode(port: number): Promise<void>;
  /** Stops every server and removes the directory; safe to call more than once, and after failures. */
  stop(): Promise<void>;
}

export interface RedisClusterOptions {
  masters?: number;
  /** requirepass and masterauth of every node; the service then reaches them with credentials. */
  password?: string;
  /** Every node's policy (noeviction, which the service requires, unless a test wants it refused). */
  maxmemoryPolicy?: string;
  /** Overrides the policy of the n-th node (0-based): one bad node among good ones. */
  nodePolicies?: Record<number, string>;
  /**
   * TLS only (`--tls-port`, `--tls-cluster yes`, plain ports closed), with a certificate for
   * 127.0.0.1 and localhost signed by a CA made here; clients need not present one.
   */
  tls?: boolean;
}

/** Bounds: a loaded 2-core machine has taken seconds to start a redis-server. */
const NODE_START_MS = 20_000;
const CREATE_MS = 60_000;
const STATE_OK_MS = 30_000;
const POLL_MS = 50;

function findBinary(name: string): string | null {
  const known = [`/usr/bin/${name}`, `/usr/local/bin/${name}`].find((p) => existsSync(p));
  if (known) return known;
  const onPath = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' });
  return onPath.status === 0 && onPath.stdout.trim() ? onPath.stdout.trim() : null;
}

/** Whether this machine can run the cluster suites: redis-server and redis-cli on PATH. */
export function redisClusterAvailable(): boolean {
  return findBinary('redis-server') !== null && findBinary('redis-cli') !== null;
}

/** Runs a program to its end, at most `ms`; its output, or an error carrying it. */
function run(command: string, args: string[], ms: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString('utf8')));
    child.stderr.on('data', (d: Buffer) => (output += d.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), ms);
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve(output);
      else reject(new Error(`${command} ${args.join(' ')} ${signal ? `was killed (${signal}, over ${ms} ms)` : `exited with ${code}`}:\n${output}`));
    });
  });
}

/** A CA and a certificate for 127.0.0.1 and localhost signed by it, made with openssl in `dir`. */
async function makeCertificates(dir: string): Promise<{ ca: string; cert: string; key: string }> {
  const openssl = findBinary('openssl');
  if (!openssl) throw new Error('openssl is needed for a TLS Redis Cluster');
  const at = (name: string) => join(dir, name);
  writeFileSync(at('san.cnf'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\n');
  await run(
    openssl,
    ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2', '-subj', '/CN=dts test CA', '-keyout', at('ca.key'), '-out', at('ca.crt')],
    CREATE_MS,
  );
  await run(openssl, ['req', '-newkey', 'rsa:2048', '-nodes', '-subj', '/CN=127.0.0.1', '-keyout', at('node.key'), '-out', at('node.csr')], CREATE_MS);
  await run(
    openssl,
    [
      'x509',
      '-req',
      '-in',
      at('node.csr'),
      '-CA',
      at('ca.crt'),
      '-CAkey',
      at('ca.key'),
      '-CAcreateserial',
      '-days',
      '2',
      '-extfile',
      at('san.cnf'),
      '-out',
      at('node.crt'),
    ],
    CREATE_MS,
  );
  return { ca: at('ca.crt'), cert: at('node.crt'), key: at('node.key') };
}

export async function startRedisCluster(options: RedisClusterOptions = {}): Promise<LocalRedisCluster> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startRedisClusterOnce(options);
    } catch (error) {
      // Ports are picked free here and bound a moment later by redis-server: another process may
      // take one in between (seen in CI: a cluster bus port, while other suites started clusters).
      // The failed attempt has stopped its nodes; new ports then.
      if (attempt >= 3 || !/Address already in use/.test((error as Error).message)) throw error;
    }
  }
}

async function startRedisClusterOnce(options: RedisClusterOptions): Promise<LocalRedisCluster> {
  const server = findBinary('redis-server');
  const cli = findBinary('redis-cli') ?? (server ? join(dirname(server), 'redis-cli') : null);
  if (!server || !cli || !existsSync(cli))
    throw new Error('redis-server and redis-cli are needed for a local Redis Cluster: install redis-server (Debian: redis-server, redis-tools)');
  const masters = options.masters ?? 3;
  const password = options.password ?? null;
  const dir = mkdtempSync(join(tmpdir(), 'dts-redis-cluster-'));
  const children: ChildProcess[] = [];
  const exits: Promise<void>[] = [];
  const nodes: { host: string; port: number }[] = [];
  const auth: { password?: string; tls?: { ca: string } } = password ? { password } : {};
  let certificates: { ca: string; cert: string; key: string } | null = null;
  let stopped = false;

  const stop = async () => {
    if (stopped) return;
    stopped = true;
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await Promise.all(exits);
    rmSync(dir, { recursive: true, force: true });
  };

  /** Asks a node until `done` says yes, within `ms`; fails naming what the node last said. */
  const waitFor = async (port: number, ask: (r: Redis) => Promise<string>, done: (answer: string) => boolean, what: string, ms: number) => {
    const until = Date.now() + ms;
    let last = 'nothing';
    for (;;) {
      const probe = new Redis({ host: '127.0.0.1', port, lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, ...auth });
      probe.on('error', () => undefined);
      try {
        await probe.connect();
        const answer = await ask(probe);
        if (done(answer)) return;
        last = answer.split('\n')[0] ?? answer;
      } catch (error) {
        last = (error as Error).message;
      } finally {
        probe.disconnect();
      }
      const child = children[nodes.findIndex((n) => n.port === port)];
      if (child && child.exitCode !== null) throw new Error(`redis-server on ${port} exited (${child.exitCode}): ${readLog(port)}`);
      if (Date.now() > until) throw new Error(`redis-server on ${port}: ${what} not reached within ${ms} ms (last: ${last})`);
      await pause(POLL_MS);
    }
  };
  const readLog = (port: number) => {
    try {
      return readFileSync(join(dir, String(port), 'redis.log'), 'utf8')
        .split('\n')
        .slice(-10)
        .join('\n');
    } catch {
      return '(no log)';
    }
  };

  try {
    if (options.tls) {
      certificates = await makeCertificates(dir);
      auth.tls = { ca: readFileSync(certificates.ca, 'utf8') };
    }
    const tls = certificates;
    // With TLS the plain port is closed: clients, redis-cli and the cluster bus all speak TLS.
    const listen = (port: number) =>
      tls
        ? ['--port', '0', '--tls-port', String(port), '--tls-cluster', 'yes', '--tls-replication', 'yes'].concat([
            '--tls-cert-file',
            tls.cert,
            '--tls-key-file',
            tls.key,
            '--tls-ca-cert-file',
            tls.ca,
            '--tls-auth-clients',
            'no',
          ])
        : ['--port', String(port)];
    for (let i = 0; i < masters; i++) {
      const port = await freePort();
      // The cluster bus is port + 10000 by default, which may be taken or past 65535: a free one of its own.
      const busPort = await freePort();
      const nodeDir = join(dir, String(port));
      mkdirSync(nodeDir);
      const args = [
        ...listen(port),
        '--cluster-port',
        String(busPort),
        '--bind',
        '127.0.0.1',
        '--cluster-enabled',
        'yes',
        '--cluster-config-file',
        join(nodeDir, 'nodes.conf'),
        '--dir',
        nodeDir,
        '--save',
        '',
        '--appendonly',
        'no',
        '--maxmemory',
        '256mb',
        '--maxmemory-policy',
        options.nodePolicies?.[i] ?? options.maxmemoryPolicy ?? 'noeviction',
        '--daemonize',
        'no',
        '--logfile',
        join(nodeDir, 'redis.log'),
        ...(password ? ['--requirepass', password, '--masterauth', password] : []),
      ];
      const child = spawn(server, args, { stdio: 'ignore' });
      children.push(child);
      exits.push(new Promise<void>((resolve) => child.once('exit', () => resolve())));
      nodes.push({ host: '127.0.0.1', port });
    }
    await Promise.all(
      nodes.map((n) =>
        waitFor(
          n.port,
          (r) => r.ping(),
          (a) => a === 'PONG',
          'PONG',
          NODE_START_MS,
        ),
      ),
    );
    // `--cluster create` assigns the slots, introduces the nodes and waits for them to agree.
    await run(
      cli,
      [
        ...(certificates ? ['--tls', '--cacert', certificates.ca] : []),
        ...(password ? ['-a', password, '--no-auth-warning'] : []),
        '--cluster',
        'create',
        ...nodes.map((n) => `${n.host}:${n.port}`),
        '--cluster-replicas',
        '0',
        '--cluster-yes',
      ],
      CREATE_MS,
    );
    // Each node serves once it, itself, sees every slot covered.
    await Promise.all(
      nodes.map((n) =>
        waitFor(
          n.port,
          (r) => r.cluster('INFO') as Promise<string>,
          (info) => /^cluster_state:ok\s*$/m.test(info),
          'cluster_state:ok',
          STATE_OK_MS,
        ),
      ),
    );
  } catch (error) {
    await stop();
    throw error;
  }

  const credentials = password ? `:${encodeURIComponent(password)}@` : '';
  const scheme = certificates ? 'rediss' : 'redis';
  return {
    nodes,
    password,
    caFile: certificates?.ca ?? null,
    setting: nodes.map((n) => (password || certificates ? `${scheme}://${credentials}${n.host}:${n.port}` : `${n.host}:${n.port}`)).join(','),
    client: () => new Cluster(nodes, { redisOptions: { ...auth, maxRetriesPerRequest: 3 } }),
    node: (port: number) => new Redis({ host: '127.0.0.1', port, maxRetriesPerRequest: 3, ...auth }),
    async killNode(port: number) {
      const at = nodes.findIndex((n) => n.port === port);
      const child = children[at];
      if (!child) throw new Error(`no node of this cluster on port ${port}`);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exits[at];
    },
    stop,
  };
}
