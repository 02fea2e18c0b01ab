import { Cluster, type ClusterOptions, Redis } from 'ioredis';
import type { AppConfig } from '../config/app-config';
import type { RedisClusterSettings } from '../config/redis-cluster-nodes';

export const REDIS_CLIENT = Symbol('REDIS_CLIENT');

/**
 * What the service talks to Redis through: one server (REDIS_URL), or a Redis Cluster
 * (REDIS_CLUSTER_NODES), where every command goes to the master owning its key's hash slot. Code
 * written against this type uses only what both answer the same way: single-key commands, MULTI
 * and Lua scripts whose keys share one slot, PUBLISH/SUBSCRIBE, and the helpers of redis-keys.ts
 * for what touches keys in many slots (reads and deletes of many keys, SCAN).
 */
export type RedisClient = Redis | Cluster;

export function isCluster(redis: RedisClient): redis is Cluster {
  return redis.isCluster;
}

/**
 * Reconnect every 50, 100, … ms, at most every 500 ms (ioredis' default grows to 2 s): a request
 * waits at most ~1.5 s (three attempts) before its 503 while Redis is down, and the service is
 * back within half a second of Redis (measured by faults-services.e2e-spec.ts on a single Redis).
 */
const reconnectDelay = (times: number) => Math.min(times * 50, 500);

/**
 * A client of the configured Redis Cluster. Its nodes take the credentials and TLS of
 * REDIS_CLUSTER_NODES, the nodes it discovers included. `maxRetriesPerRequest` is per node
 * connection: 3 for the service's commands, null for BullMQ (its blocking commands must wait).
 */
export function createRedisCluster(
  settings: RedisClusterSettings,
  options: { maxRetriesPerRequest: number | null; lazyConnect?: boolean; retry?: boolean; offlineQueue?: boolean },
): Cluster {
  const clusterOptions: ClusterOptions = {
    redisOptions: {
      username: settings.username ?? undefined,
      password: settings.password?.reveal(),
      // Each node's certificate is checked against the name it is reached by, as a single
      // rediss:// Redis is: the seed's host name, then what CLUSTER SLOTS announces.
      tls: settings.tls ? {} : undefined,
      maxRetriesPerRequest: options.maxRetriesPerRequest,
    },
    clusterRetryStrategy: options.retry === false ? () => null : reconnectDelay,
    enableReadyCheck: true,
    enableOfflineQueue: options.offlineQueue ?? true,
    lazyConnect: options.lazyConnect ?? false,
    // With TLS the seeds are reached by name, not by the address the name resolves to: a
    // certificate names the host, and managed clusters (ElastiCache, Memorystore) need this.
    ...(settings.tls ? { dnsLookup: (address: string, callback: (err: null, address: string) => void) => callback(null, address) } : {}),
  };
  return new Cluster(
    settings.nodes.map((n) => ({ host: n.host, port: n.port })),
    clusterOptions,
  );
}

/**
 * A client for the shared store, or null when neither REDIS_URL nor REDIS_CLUSTER_NODES is set (the
 * database is the store then).
 *
 * A cluster client queues commands while it has no node at all (every node unreachable) for as long
 * as that lasts: `maxRetriesPerRequest` bounds retries on a node, not that wait. Without its offline
 * queue, a command then fails at once and the request is a 503, as on a single Redis after its three
 * attempts; so that nothing fails before the first connection, RedisModule waits for the client to
 * be ready before the service starts (whenClusterReady).
 */
export function createRedisClient(config: AppConfig): RedisClient | null {
  if (config.redis.cluster) return createRedisCluster(config.redis.cluster, { maxRetriesPerRequest: 3, offlineQueue: false });
  if (!config.redis.url) return null;
  return new Redis(config.redis.url, {
    // Commands wait for a reconnect rather than failing at once; a long outage surfaces as 503.
    maxRetriesPerRequest: 3,
    retryStrategy: reconnectDelay,
    enableReadyCheck: true,
    lazyConnect: false,
  });
}

/** Failed reconnects after which a cluster subscriber gives its node up (about 4 s at reconnectDelay). */
const SUBSCRIBER_GIVE_UP_AFTER = 12;

/** `host:port` of a node connection. */
export function nodeName(node: Redis): string {
  return `${node.options.host}:${node.options.port}`;
}

/**
 * A connection for SUBSCRIBE (a subscribed connection can do nothing else).
 *
 * On a single Redis, a copy of the client: it reconnects for ever and subscribes again by itself.
 *
 * On a cluster, a connection to one node of it, picked at random (`avoid` only when nothing else
 * is known): classic pub/sub is cluster-wide — a PUBLISH on any node reaches the subscribers of
 * every node, even while the cluster cannot serve every slot. A connection of our own rather than
 * the cluster client's internal subscriber, because that one moves to another node silently, and
 * the owner must know when notices may have been missed. It reconnects to its node for a few
 * seconds, then gives it up and ends ('end'): the owner opens another, which will likely be on a
 * node still up.
 */
export async function subscriberConnection(redis: RedisClient, avoid: string | null = null): Promise<Redis> {
  if (!isCluster(redis)) return redis.duplicate();
  await whenClusterReady(redis, 10_000);
  const nodes = redis.nodes('all');
  const choices = nodes.length > 1 && avoid ? nodes.filter((n) => nodeName(n) !== avoid) : nodes;
  const node = choices[Math.floor(Math.random() * choices.length)];
  if (!node) throw new Error('the Redis Cluster client knows no node to subscribe on');
  return node.duplicate({
    lazyConnect: false,
    readOnly: false,
    retryStrategy: (times: number) => (times > SUBSCRIBER_GIVE_UP_AFTER ? null : reconnectDelay(times)),
  });
}

/** Resolves once a cluster client is ready (a slot map, cluster_state:ok); at once for a single Redis. Fails after `ms`. */
export function whenClusterReady(redis: RedisClient, ms: number): Promise<void> {
  if (!isCluster(redis) || redis.status === 'ready') return Promise.resolve();
  return new Promise<void>((resolve, reject) => {
    const ready = () => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(() => {
      redis.off('ready', ready);
      reject(new Error(`the Redis Cluster client is ${redis.status} after ${ms / 1000} s: no slot map with cluster_state:ok`));
    }, ms);
    redis.once('ready', ready);
  });
}
