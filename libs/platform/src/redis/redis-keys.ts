import type { Redis } from 'ioredis';
import { isCluster, type RedisClient } from './redis';

/**
 * Commands over many keys that a Redis Cluster refuses when the keys hash to different slots
 * (CROSSSLOT), and SCAN, which a cluster's client cannot send to "the" server: each helper does
 * what the single server does in one command, and on a cluster splits it so that every part
 * stays within one slot or one node. The keys keep spreading over the cluster's masters (sessions,
 * cache chunks), which is the point of running one.
 */

/** Keys sent at once on a cluster, where each is a command of its own: bounds what one call queues. */
const CLUSTER_BATCH = 500;

async function inBatches<T>(keys: readonly string[], each: (key: string) => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  for (let at = 0; at < keys.length; at += CLUSTER_BATCH) out.push(...(await Promise.all(keys.slice(at, at + CLUSTER_BATCH).map(each))));
  return out;
}

/**
 * The values of `keys`, in order, null where a key is missing: one MGET on a single Redis; on a
 * cluster one GET per key, sent together (each goes to its slot's master; a slot holds one of
 * them, as the keys this is used for are random digests, so grouping by slot would gain nothing).
 */
export async function getMany(redis: RedisClient, keys: readonly string[]): Promise<(string | null)[]> {
  if (keys.length === 0) return [];
  if (!isCluster(redis)) return redis.mget(...keys);
  return inBatches(keys, (key) => redis.get(key));
}

/** Deletes `keys`; how many were there. One DEL on a single Redis, one DEL per key on a cluster. */
export async function deleteMany(redis: RedisClient, keys: readonly string[]): Promise<number> {
  if (keys.length === 0) return 0;
  if (!isCluster(redis)) return redis.del(...keys);
  return (await inBatches(keys, (key) => redis.del(key))).reduce((a, b) => a + b, 0);
}

/**
 * The masters a cluster client knows now (their connections; a command on one goes to that node
 * alone). Empty on a single Redis.
 */
export function clusterMasters(redis: RedisClient): Redis[] {
  return isCluster(redis) ? redis.nodes('master') : [];
}

/**
 * Batches of the keys matching `match`. SCAN walks one server's keyspace: on a cluster, every
 * master's in turn (the masters the client knows when it starts; a key moved by resharding while
 * the scan runs may be missed or seen twice, which callers tolerate — the cache's chunks expire
 * by themselves).
 */
export async function* scanKeys(redis: RedisClient, match: string, count = 500): AsyncGenerator<string[]> {
  const servers: Redis[] = isCluster(redis) ? redis.nodes('master') : [redis];
  // Before its first slot map a cluster client knows no master: a scan of nothing would pass for "no such keys".
  if (servers.length === 0) throw new Error('the Redis Cluster client knows no master yet (not connected)');
  for (const server of servers) {
    for await (const keys of server.scanStream({ match, count }) as AsyncIterable<string[]>) if (keys.length > 0) yield keys;
  }
}
