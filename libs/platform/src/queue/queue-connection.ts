import { createPostgresBackend, runMigrations as runQueueMigrations, setDefaultBackendFactory } from 'bullmq';
import type { Cluster } from 'ioredis';
import { Client } from 'pg';
import type { AppConfig } from '../config/app-config';
import { createRedisCluster } from '../redis/redis';

export interface QueueBackendTarget {
  /** Connection string of the database the service uses (the embedded one's socket in embedded mode). */
  databaseUrl: string;
  embedded: boolean;
}

/**
 * The prefix of every queue key. On a Redis Cluster BullMQ's scripts touch many keys of a queue at
 * once (its lists, sets, job hashes), which a cluster allows only within one hash slot: the prefix
 * carries a hash tag, `{dts}:q`, so that every queue's keys hash by `dts` alone and live on one
 * master. A single Redis keeps `dts:q`, the name its queued jobs already have.
 */
export function queuePrefix(config: Pick<AppConfig, 'redis'>): string {
  return config.redis.cluster ? `{${config.redis.prefix}}:q` : `${config.redis.prefix}:q`;
}

/**
 * Chooses BullMQ's backend: Redis when REDIS_URL or REDIS_CLUSTER_NODES is set, else BullMQ's
 * PostgreSQL backend on the service's own database. `@nestjs/bullmq` builds queues without a
 * backend argument, so the PostgreSQL one is installed as the process-wide default before any
 * queue is created.
 *
 * On a cluster, BullMQ takes a client rather than connection options: `cluster` is that client,
 * shared by the queues (each worker makes its own copies) and closed by its owner after them.
 */
export function configureQueueBackend(config: AppConfig, target: QueueBackendTarget) {
  if (config.redis.cluster) {
    setDefaultBackendFactory(undefined);
    // null: a blocking command (a worker waiting for a job) must outlast a failover, not fail after 3 tries.
    const cluster: Cluster = createRedisCluster(config.redis.cluster, { maxRetriesPerRequest: null });
    return { connection: cluster, prefix: queuePrefix(config), cluster };
  }
  if (config.redis.url) {
    setDefaultBackendFactory(undefined);
    return { connection: { url: config.redis.url, maxRetriesPerRequest: null }, prefix: queuePrefix(config), cluster: null };
  }
  setDefaultBackendFactory(createPostgresBackend as never);
  return {
    connection: {
      connectionString: target.databaseUrl,
      // Migrated once, by migrateQueueSchema before the first queue (QueueModule); each of the ~30
      // queues, workers and event listeners then only reads the ledger. With `migrate: true` each
      // ran BullMQ's migration itself — nine statements with DDL under one advisory lock, taken in
      // turn: 300 statements and most of a start-up on the embedded database.
      migrate: false,
      schema: queueSchema(target),
      // Every queue and worker opens its own pool: keep them small.
      max: 3,
    } as never,
    prefix: config.redis.prefix,
    cluster: null,
  };
}

/** BullMQ's schema on the database. PGlite ignores the startup option that pins search_path to BullMQ's own schema. */
const queueSchema = (target: QueueBackendTarget) => (target.embedded ? 'public' : 'bullmq');

/** BullMQ's queue schema when the queues are on the database (not on Redis): see migrateQueueTables. */
export async function migrateQueueSchema(config: AppConfig, target: QueueBackendTarget): Promise<void> {
  if (config.redis.cluster || config.redis.url) return;
  await migrateQueueTables(target);
}

/**
 * Brings BullMQ's tables on the database up to this BullMQ's version (its own migrations, under its
 * own advisory lock: several processes starting at once take turns). The embedded database's
 * template has them already (libs/persistence embedded-template.ts): there it only checks.
 */
export async function migrateQueueTables(target: QueueBackendTarget): Promise<void> {
  const client = new Client({ connectionString: target.databaseUrl });
  await client.connect();
  try {
    await runQueueMigrations(client, queueSchema(target));
  } finally {
    await client.end();
  }
}
