import { createPostgresBackend, setDefaultBackendFactory } from 'bullmq';
import type { AppConfig } from '../config/app-config';

export interface QueueBackendTarget {
  /** Connection string of the database the service uses (the embedded one's socket in embedded mode). */
  databaseUrl: string;
  embedded: boolean;
}

/**
 * Chooses BullMQ's backend: Redis when REDIS_URL is set, else BullMQ's PostgreSQL backend on the
 * service's own database. `@nestjs/bullmq` builds queues without a backend argument, so the
 * PostgreSQL one is installed as the process-wide default before any queue is created.
 */
export function configureQueueBackend(config: AppConfig, target: QueueBackendTarget) {
  if (config.redis.url) {
    setDefaultBackendFactory(undefined);
    return { connection: { url: config.redis.url, maxRetriesPerRequest: null }, prefix: `${config.redis.prefix}:q` };
  }
  setDefaultBackendFactory(createPostgresBackend as never);
  return {
    connection: {
      connectionString: target.databaseUrl,
      migrate: true,
      // PGlite ignores the startup option that pins search_path to BullMQ's own schema.
      schema: target.embedded ? 'public' : 'bullmq',
      // Every queue and worker opens its own pool: keep them small.
      max: 3,
    } as never,
    prefix: config.redis.prefix,
  };
}
