import { embeddedConnectionsFor, suiteDatabase } from '@dts/persistence';

export const realDatabaseUrl = process.env.TEST_DATABASE_URL || null;
export const realRedisUrl = process.env.TEST_REDIS_URL || null;

export interface WorkerTestDatabase {
  url: string;
  embedded: boolean;
  drop(): Promise<void>;
}

/**
 * A database of its own for a worker suite (suiteDatabase), with room on the embedded database
 * for a worker's pools. Migrations are the suite's to run.
 */
export async function createWorkerTestDatabase(prefix: string): Promise<WorkerTestDatabase> {
  const db = await suiteDatabase(prefix, { maxConnections: embeddedConnectionsFor(3) });
  return { url: db.url, embedded: db.embedded, drop: db.stop };
}
