import { embeddedConnectionsFor, startEmbeddedPostgres } from '@dts/persistence';
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';

export const realDatabaseUrl = process.env.TEST_DATABASE_URL || null;
export const realRedisUrl = process.env.TEST_REDIS_URL || null;

export interface WorkerTestDatabase {
  url: string;
  embedded: boolean;
  drop(): Promise<void>;
}

async function admin(sql: string): Promise<void> {
  const client = new Client({ connectionString: realDatabaseUrl! });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/**
 * A database of its own for a worker suite: a new one on TEST_DATABASE_URL's server when it is
 * set (dropped by `drop`), else an in-memory embedded PostgreSQL with room for a worker's pools.
 * Migrations are the suite's to run.
 */
export async function createWorkerTestDatabase(prefix: string): Promise<WorkerTestDatabase> {
  if (realDatabaseUrl) {
    const name = `${prefix}_${randomBytes(4).toString('hex')}`;
    await admin(`CREATE DATABASE ${name}`);
    const url = new URL(realDatabaseUrl);
    url.pathname = `/${name}`;
    return { url: url.toString(), embedded: false, drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
  }
  const embedded = await startEmbeddedPostgres({ dataDir: null, maxConnections: embeddedConnectionsFor(3) });
  return { url: embedded.url, embedded: true, drop: () => embedded.stop() };
}
