import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { Cluster } from 'ioredis';
import { loadConfig } from '../config/load-config';
import { type LocalRedisCluster, startRedisCluster } from '../testing/redis-cluster';
import { createRedisClient, isCluster, type RedisClient } from './redis';
import { clusterMasters, deleteMany, getMany, scanKeys } from './redis-keys';
import { RedisPolicyError, verifyRedisEvictionPolicy } from './redis-policy';

/*
 * The Redis helpers against a real three-master Redis Cluster started here (and the same calls on
 * the single Redis of TEST_REDIS_URL). In the PostgreSQL + Redis pass of `npm test`, where the
 * machine has redis-server: there a missing redis-cli or redis-server fails the suite.
 */
const redisPass = Boolean(process.env.TEST_REDIS_URL);
const suite = redisPass ? describe : describe.skip;
const TITLE = 'the Redis helpers on a Redis Cluster';
const SECRETS = { INGEST_SECRET: 'ingest-secret-0123456789', TOKEN_ENCRYPTION_KEY: 'ab'.repeat(32), SESSION_SECRET: 's'.repeat(40) };

/** The master (port) holding each key, asked of the nodes themselves. */
async function ownersOf(cluster: LocalRedisCluster, keys: string[]): Promise<Map<string, number>> {
  const owners = new Map<string, number>();
  for (const { port } of cluster.nodes) {
    const node = cluster.node(port);
    try {
      const there = await Promise.all(keys.map((k) => node.exists(k).catch(() => 0)));
      keys.forEach((k, i) => there[i] && owners.set(k, port));
    } finally {
      node.disconnect();
    }
  }
  return owners;
}

/** The start-up check, then keys written and read on every master, by the built library in a process of its own. */
async function inProcess(nodes: string, env: Record<string, string>): Promise<{ verify: string; masters?: number; values?: (string | null)[] }> {
  const platform = join(__dirname, '../../../../dist/libs/platform/src/index.js');
  const script = `
    const p = require(${JSON.stringify(platform)});
    (async () => {
      const config = p.loadConfig({ ...${JSON.stringify({ ...SECRETS, DATABASE_URL: 'postgres://x@localhost/db' })}, REDIS_CLUSTER_NODES: process.env.NODES });
      const out = {};
      try { await p.verifyRedisEvictionPolicy(config); out.verify = 'ok'; } catch (e) { out.verify = e.message; }
      if (out.verify === 'ok') {
        const redis = p.createRedisClient(config);
        redis.on('error', () => undefined);
        await p.whenClusterReady(redis, 15000);
        for (let i = 0; i < 30; i++) await redis.set('tls:' + i, String(i));
        out.masters = p.clusterMasters(redis).length;
        out.values = await p.getMany(redis, ['tls:0', 'tls:29']);
        redis.disconnect();
      }
      process.stdout.write(JSON.stringify(out));
    })();`;
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['-e', script], { env: { PATH: process.env.PATH ?? '', NODES: nodes, ...env }, timeout: 60_000 }, (error, stdout, stderr) => {
      if (error && !stdout) return reject(new Error(`${error.message}\n${stderr}`));
      resolve(JSON.parse(stdout) as { verify: string });
    });
  });
}

suite(redisPass ? TITLE : `${TITLE} (skipped: needs TEST_REDIS_URL, the Redis pass)`, () => {
  let cluster: LocalRedisCluster;
  let client: Cluster;

  beforeAll(async () => {
    cluster = await startRedisCluster({ password: `pw-${randomBytes(6).toString('hex')}` });
    const config = loadConfig({ ...SECRETS, DATABASE_URL: 'postgres://x@localhost/db', REDIS_CLUSTER_NODES: cluster.setting });
    const made = createRedisClient(config);
    if (!made || !isCluster(made)) throw new Error('REDIS_CLUSTER_NODES did not give a cluster client');
    client = made;
    await new Promise<void>((resolve, reject) => {
      if (client.status === 'ready') return resolve();
      client.once('ready', () => resolve());
      client.once('error', reject);
    });
  }, 120_000);
  afterAll(async () => {
    client?.disconnect();
    await cluster?.stop();
  });

  it('reaches the cluster with the password of REDIS_CLUSTER_NODES and knows its three masters', async () => {
    expect(clusterMasters(client)).toHaveLength(3);
    expect(await client.ping()).toBe('PONG');
  });

  it('refuses what a single Redis takes: MGET and DEL over keys in several slots (the reason for the helpers)', async () => {
    await expect(client.mget('a', 'b', 'c')).rejects.toThrow(/CROSSSLOT/);
    await expect(client.del('a', 'b', 'c')).rejects.toThrow(/CROSSSLOT/);
  });

  it('reads, scans and deletes many keys spread over every master', async () => {
    const prefix = `t-${randomBytes(3).toString('hex')}`;
    const keys = Array.from({ length: 60 }, (_, i) => `${prefix}:k:${i}`);
    for (const [i, k] of keys.entries()) await client.set(k, String(i));
    const owners = await ownersOf(cluster, keys);
    expect(owners.size).toBe(keys.length);
    expect(new Set(owners.values()).size).toBe(3);

    expect(await getMany(client, [...keys, `${prefix}:missing`])).toEqual([...keys.map((_, i) => String(i)), null]);
    const scanned: string[] = [];
    for await (const batch of scanKeys(client, `${prefix}:k:*`, 7)) scanned.push(...batch);
    expect(scanned.sort()).toEqual([...keys].sort());

    expect(await deleteMany(client, [...keys.slice(0, 40), `${prefix}:missing`])).toBe(40);
    expect(await getMany(client, keys)).toEqual([...Array.from({ length: 40 }, () => null), ...keys.slice(40).map((_, i) => String(40 + i))]);
  });

  it('does the same in one command each on a single Redis', async () => {
    const single = createRedisClient(
      loadConfig({ ...SECRETS, DATABASE_URL: 'postgres://x@localhost/db', REDIS_URL: process.env.TEST_REDIS_URL! }),
    ) as RedisClient;
    try {
      const prefix = `dts-helpers-${randomBytes(3).toString('hex')}`;
      const keys = Array.from({ length: 10 }, (_, i) => `${prefix}:k:${i}`);
      for (const k of keys) await single.set(k, k, 'EX', 60);
      expect(await getMany(single, keys)).toEqual(keys);
      const scanned: string[] = [];
      for await (const batch of scanKeys(single, `${prefix}:*`)) scanned.push(...batch);
      expect(scanned.sort()).toEqual([...keys].sort());
      expect(await deleteMany(single, keys)).toBe(10);
    } finally {
      single.disconnect();
    }
  });

  it('starts on a cluster whose every node is noeviction', async () => {
    const config = loadConfig({ ...SECRETS, DATABASE_URL: 'postgres://x@localhost/db', REDIS_CLUSTER_NODES: cluster.setting });
    await expect(verifyRedisEvictionPolicy(config)).resolves.toBeUndefined();
  });

  it('refuses REDIS_URL naming a cluster node, pointing at REDIS_CLUSTER_NODES', async () => {
    const [first] = cluster.nodes;
    const url = `redis://:${encodeURIComponent(cluster.password!)}@${first!.host}:${first!.port}`;
    const refusal = await verifyRedisEvictionPolicy(loadConfig({ ...SECRETS, DATABASE_URL: 'postgres://x@localhost/db', REDIS_URL: url })).catch(
      (e: unknown) => e,
    );
    expect(refusal).toBeInstanceOf(RedisPolicyError);
    expect((refusal as Error).message).toBe(
      `Redis at ${first!.host}:${first!.port} (REDIS_URL) is a node of a Redis Cluster: set REDIS_CLUSTER_NODES to the cluster's nodes instead of REDIS_URL (a single-Redis client would be refused on every key another node owns)`,
    );
    expect((refusal as Error).message).not.toContain(cluster.password!);
  });

  it('refuses a cluster with one evicting master, naming that node, from any seed', async () => {
    const bad = await startRedisCluster({ nodePolicies: { 2: 'allkeys-lru' } });
    try {
      const badNode = bad.nodes[2]!;
      // Seeded with a good node only: the bad one is found through the slot map.
      const config = loadConfig({ ...SECRETS, DATABASE_URL: 'postgres://x@localhost/db', REDIS_CLUSTER_NODES: `127.0.0.1:${bad.nodes[0]!.port}` });
      const refusal = await verifyRedisEvictionPolicy(config).catch((e: unknown) => e);
      expect(refusal).toBeInstanceOf(RedisPolicyError);
      const message = (refusal as Error).message;
      expect(message).not.toContain('\n');
      expect(message).toContain(`Redis maxmemory-policy of Redis Cluster node 127.0.0.1:${badNode.port} is allkeys-lru`);
      expect(message).toContain('--maxmemory-policy noeviction');
    } finally {
      await bad.stop();
    }
  }, 120_000);

  it('refuses a cluster it cannot reach, or a wrong password, with one line naming REDIS_CLUSTER_NODES', async () => {
    const [first] = cluster.nodes;
    const wrong = loadConfig({
      ...SECRETS,
      DATABASE_URL: 'postgres://x@localhost/db',
      REDIS_CLUSTER_NODES: `redis://:not-the-password@127.0.0.1:${first!.port}`,
    });
    const refusal = await verifyRedisEvictionPolicy(wrong).catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(RedisPolicyError);
    expect((refusal as Error).message).toMatch(new RegExp(`^Redis Cluster at 127\\.0\\.0\\.1:${first!.port} \\(REDIS_CLUSTER_NODES\\) cannot be reached`));
    expect((refusal as Error).message).toContain('WRONGPASS');
    expect((refusal as Error).message).not.toContain('not-the-password');
    expect((refusal as Error).message).not.toContain('\n');

    // Nobody there: the connection's own error, not the cluster client's "Connection is closed".
    const nobody = loadConfig({ ...SECRETS, DATABASE_URL: 'postgres://x@localhost/db', REDIS_CLUSTER_NODES: '127.0.0.1:1' });
    await expect(verifyRedisEvictionPolicy(nobody)).rejects.toThrow(
      'Redis Cluster at 127.0.0.1:1 (REDIS_CLUSTER_NODES) cannot be reached to check its maxmemory-policy: 127.0.0.1:1: connect ECONNREFUSED 127.0.0.1:1',
    );

    // A single Redis named as a cluster answers, but not as one.
    const single = new URL(process.env.TEST_REDIS_URL!);
    const notCluster = loadConfig({ ...SECRETS, DATABASE_URL: 'postgres://x@localhost/db', REDIS_CLUSTER_NODES: `${single.hostname}:${single.port || 6379}` });
    await expect(verifyRedisEvictionPolicy(notCluster)).rejects.toThrow(
      /\(REDIS_CLUSTER_NODES\) cannot be reached to check its maxmemory-policy: ERR This instance has cluster support disabled/,
    );
  });

  it('reaches a TLS cluster (rediss://) with a password, the nodes’ certificate checked against the trusted CAs', async () => {
    const secure = await startRedisCluster({ tls: true, password: `tls-${randomBytes(6).toString('hex')}` });
    try {
      const [first, second] = secure.nodes;
      const credentials = `:${encodeURIComponent(secure.password!)}@`;
      // Seeded by name (the certificate's DNS name) and by address.
      const nodes = `rediss://${credentials}localhost:${first!.port},rediss://${credentials}127.0.0.1:${second!.port}`;
      // The CA is the process's to trust, as on a single rediss:// Redis: NODE_EXTRA_CA_CERTS, read at start, so a process of its own.
      const trusted = await inProcess(nodes, { NODE_EXTRA_CA_CERTS: secure.caFile! });
      expect(trusted).toEqual({ verify: 'ok', masters: 3, values: ['0', '29'] });
      const untrusted = await inProcess(nodes, {});
      expect(untrusted.verify).toMatch(
        /^Redis Cluster at localhost:\d+,127\.0\.0\.1:\d+ \(REDIS_CLUSTER_NODES\) cannot be reached to check its maxmemory-policy: localhost:\d+: self-signed certificate in certificate chain/,
      );
      expect(untrusted.verify).not.toContain(secure.password!);
    } finally {
      await secure.stop();
    }
  }, 120_000);

  // Last: it stops the cluster.
  it('fails a command at once, not after the outage, when no node of the cluster answers (a 503, as on a single Redis)', async () => {
    await client.set('before-the-outage', '1');
    for (const { port } of cluster.nodes) await cluster.killNode(port);
    const started = Date.now();
    const failure = await client.get('before-the-outage').catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(Error);
    // Either the node's connection closing under the command, or no node at all: both answered within seconds.
    expect((failure as Error).message).toMatch(/^(Cluster isn't ready|Too many Cluster redirections)/);
    expect(Date.now() - started).toBeLessThan(5_000);
    const again = Date.now();
    await expect(client.get('before-the-outage')).rejects.toThrow(/^(Cluster isn't ready|Too many Cluster redirections)/);
    expect(Date.now() - again).toBeLessThan(5_000);
  });
});
