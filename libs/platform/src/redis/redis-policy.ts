import { Redis } from 'ioredis';
import type { AppConfig } from '../config/app-config';
import { describeClusterNodes, type RedisClusterSettings } from '../config/redis-cluster-nodes';
import { createRedisCluster } from './redis';

/**
 * Redis holds the queues, sessions and rate limits. Under memory pressure an evicting policy drops
 * keys silently: a queued job, a live session, a rate-limit counter simply vanish. Only
 * `noeviction` (writes fail loudly, with an error we turn into 503) is safe, so both apps refuse
 * to start on anything else.
 */
export const REQUIRED_EVICTION_POLICY = 'noeviction';

/** What the server said its policy is, or why it could not be read. */
export type EvictionPolicyReading = { policy: string; source: 'INFO memory' | 'CONFIG GET' } | { policy: null; why: string };

export type EvictionVerdict = { start: true; warning: string | null } | { start: false; problem: string };

/** The start-up refusal, one line naming the setting and the fix (main prints the message alone). */
export class RedisPolicyError extends Error {
  override readonly name = 'RedisPolicyError';
}

/** `maxmemory_policy` from the text of `INFO memory`; null when the field is not there. */
export function policyFromInfo(info: string): string | null {
  const match = /^maxmemory_policy:(\S+)\s*$/m.exec(info);
  return match?.[1] ?? null;
}

/**
 * The decision. A policy other than noeviction refuses. A policy that cannot be read (INFO and
 * CONFIG both disabled or stripped, as a few managed services do) starts with a warning: we cannot
 * tell, and refusing would make the service unusable on such a host for a setting that may well
 * be right; the operator is told what to check.
 */
export function evictionVerdict(reading: EvictionPolicyReading, node?: string): EvictionVerdict {
  const of = node ? ` of Redis Cluster node ${node}` : '';
  if (reading.policy === null) {
    return {
      start: true,
      warning: `could not read the Redis maxmemory-policy${of} (${reading.why}): make sure it is ${REQUIRED_EVICTION_POLICY}, or queued jobs and sessions may be evicted`,
    };
  }
  if (reading.policy === REQUIRED_EVICTION_POLICY) return { start: true, warning: null };
  return {
    start: false,
    problem:
      `Redis maxmemory-policy${of} is ${reading.policy} (from ${reading.source}), it must be ${REQUIRED_EVICTION_POLICY}: evicting keys would silently drop queued jobs, sessions and rate limits. ` +
      `Fix: start Redis with --maxmemory-policy ${REQUIRED_EVICTION_POLICY} (or set maxmemory-policy ${REQUIRED_EVICTION_POLICY} in redis.conf or your provider's parameter group)`,
  };
}

/**
 * Reads the policy with `INFO memory` (allowed on managed Redis that disable CONFIG), falling back
 * to `CONFIG GET`. A connection failure is not "unreadable": it propagates, and start-up fails.
 */
export async function readEvictionPolicy(redis: Pick<Redis, 'info' | 'config'>): Promise<EvictionPolicyReading> {
  const refusals: string[] = [];
  try {
    const policy = policyFromInfo(await redis.info('memory'));
    if (policy) return { policy, source: 'INFO memory' };
    refusals.push('INFO memory has no maxmemory_policy');
  } catch (error) {
    if (!isCommandRefusal(error)) throw error;
    refusals.push(`INFO: ${(error as Error).message}`);
  }
  try {
    const answer = (await redis.config('GET', 'maxmemory-policy')) as unknown as string[];
    const policy = answer[answer.indexOf('maxmemory-policy') + 1];
    if (answer.includes('maxmemory-policy') && policy) return { policy, source: 'CONFIG GET' };
    refusals.push('CONFIG GET maxmemory-policy answered nothing');
  } catch (error) {
    if (!isCommandRefusal(error)) throw error;
    refusals.push(`CONFIG: ${(error as Error).message}`);
  }
  return { policy: null, why: refusals.join('; ') };
}

/** An error reply from the server (ERR unknown command, NOPERM…), as opposed to a lost connection. */
function isCommandRefusal(error: unknown): boolean {
  return (error as Error)?.name === 'ReplyError';
}

/**
 * Refuses (throws RedisPolicyError) unless the policy is noeviction; returns a warning to log, if
 * any. `node`: the cluster node this client is connected to, named in the refusal.
 */
export async function checkEvictionPolicy(redis: Pick<Redis, 'info' | 'config'>, node?: string): Promise<string | null> {
  const verdict = evictionVerdict(await readEvictionPolicy(redis), node);
  if (!verdict.start) throw new RedisPolicyError(verdict.problem);
  return verdict.warning;
}

/**
 * Whether the server is a node of a Redis Cluster (`cluster_enabled:1` in INFO cluster). Such a
 * node answers a client that does not follow the cluster with MOVED for most keys and refuses
 * commands across slots: REDIS_URL must not point at one. A server that refuses INFO cannot tell.
 */
export async function isClusterNode(redis: Pick<Redis, 'info'>): Promise<boolean> {
  try {
    return /^cluster_enabled:1\s*$/m.test(await redis.info('cluster'));
  } catch (error) {
    if (isCommandRefusal(error)) return false;
    throw error;
  }
}

/** How long start-up waits for a Redis Cluster to answer with a slot map and cluster_state:ok. */
const CLUSTER_CONNECT_TIMEOUT_MS = 15_000;

/**
 * The start-up check both apps run before anything else touches Redis (nothing without REDIS_URL or
 * REDIS_CLUSTER_NODES): a short-lived client of its own, so that the refusal comes before Nest
 * builds queues and workers on the wrong server. A Redis that cannot be reached fails start-up too
 * (one line; the orchestrator restarts the process), and so does REDIS_URL naming a cluster node.
 * A policy that cannot be read is a warning on stderr.
 */
export async function verifyRedisEvictionPolicy(config: AppConfig): Promise<void> {
  if (config.redis.cluster) return verifyClusterEvictionPolicy(config.redis.cluster);
  const url = config.redis.url;
  if (!url) return;
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 3, enableOfflineQueue: true });
  let lastError = '';
  // The failure is reported once, below; ioredis would print every reconnect attempt otherwise.
  redis.on('error', (error: Error) => (lastError = error.message));
  try {
    const warning = await checkEvictionPolicy(redis);
    if (warning) process.stderr.write(`${warning}\n`);
    if (await isClusterNode(redis)) {
      throw new RedisPolicyError(
        `Redis at ${hostOf(url)} (REDIS_URL) is a node of a Redis Cluster: set REDIS_CLUSTER_NODES to the cluster's nodes instead of REDIS_URL (a single-Redis client would be refused on every key another node owns)`,
      );
    }
  } catch (error) {
    if (error instanceof RedisPolicyError) throw error;
    throw new RedisPolicyError(`Redis at ${hostOf(url)} (REDIS_URL) cannot be reached to check its maxmemory-policy: ${lastError || (error as Error).message}`);
  } finally {
    redis.disconnect();
  }
}

/** `host:port` of a Redis URL, without its credentials. */
function hostOf(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || 6379}`;
  } catch {
    return 'REDIS_URL';
  }
}

/**
 * On a cluster every node must be noeviction: each master evicts its own keys, and a replica
 * becomes a master at a failover. Checked on every node the slot map names (masters and their
 * replicas), each refusal naming its node. A cluster that cannot be reached, or is not serving
 * every slot (cluster_state other than ok), fails start-up too.
 */
async function verifyClusterEvictionPolicy(settings: RedisClusterSettings): Promise<void> {
  // No reconnecting: one attempt, its failure reported as one line.
  const cluster = createRedisCluster(settings, { maxRetriesPerRequest: 3, lazyConnect: true, retry: false });
  let lastError = '';
  // "Failed to refresh slots cache" says nothing: the node's own answer (WRONGPASS, ECONNREFUSED,
  // "cluster support disabled") is the one line worth printing.
  const remember = (error: Error & { lastNodeError?: Error }) => (lastError = error.lastNodeError?.message ?? error.message);
  cluster.on('error', remember);
  cluster.on('node error', remember);
  const where = `Redis Cluster at ${describeClusterNodes(settings)} (REDIS_CLUSTER_NODES)`;
  let timer: NodeJS.Timeout | undefined;
  try {
    try {
      await Promise.race([
        cluster.connect(),
        new Promise<never>((_, reject) => {
          timer = setTimeout(
            () => reject(new Error(`no slot map with cluster_state:ok within ${CLUSTER_CONNECT_TIMEOUT_MS / 1000} s`)),
            CLUSTER_CONNECT_TIMEOUT_MS,
          );
        }),
      ]);
    } catch (error) {
      const why = (await seedProblem(settings)) ?? (lastError || (error as Error).message);
      throw new RedisPolicyError(`${where} cannot be reached to check its maxmemory-policy: ${why}`);
    }
    const nodes = cluster.nodes('all');
    if (nodes.length === 0) throw new RedisPolicyError(`${where} answered with no node`);
    const warnings: string[] = [];
    for (const node of nodes) {
      const name = `${node.options.host}:${node.options.port}`;
      try {
        const warning = await checkEvictionPolicy(node, name);
        if (warning) warnings.push(warning);
      } catch (error) {
        if (error instanceof RedisPolicyError) throw error;
        throw new RedisPolicyError(
          `Redis Cluster node ${name} (REDIS_CLUSTER_NODES) cannot be reached to check its maxmemory-policy: ${(error as Error).message}`,
        );
      }
    }
    for (const warning of warnings) process.stderr.write(`${warning}\n`);
  } finally {
    clearTimeout(timer);
    cluster.disconnect();
  }
}

/**
 * Why the seeds cannot be reached, as the network, TLS or the server says it ("connect
 * ECONNREFUSED", "self-signed certificate in certificate chain", "WRONGPASS …"): the cluster client
 * only reports "Connection is closed". Null when a seed connects and accepts the credentials (the
 * cluster's own answer is the reason then).
 */
async function seedProblem(settings: RedisClusterSettings): Promise<string | null> {
  const problems: string[] = [];
  for (const { host, port } of settings.nodes) {
    const probe = new Redis({
      host,
      port,
      username: settings.username ?? undefined,
      password: settings.password?.reveal(),
      tls: settings.tls ? {} : undefined,
      lazyConnect: true,
      retryStrategy: () => null,
      maxRetriesPerRequest: 0,
      connectTimeout: 5_000,
    });
    let reported = '';
    probe.on('error', (error: Error) => (reported ||= error.message));
    try {
      await probe.connect();
      return null;
    } catch (error) {
      problems.push(`${host}:${port}: ${reported || (error as Error).message}`);
    } finally {
      probe.disconnect();
    }
  }
  return problems.join('; ');
}
