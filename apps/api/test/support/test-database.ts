import { randomBytes } from 'node:crypto';
import { Client } from 'pg';

/**
 * The suites run on the embedded database by default and on a real PostgreSQL (and Redis) when
 * TEST_DATABASE_URL (and TEST_REDIS_URL) are set: `.ci/run` runs them both ways.
 */
export const realDatabaseUrl = process.env.TEST_DATABASE_URL || null;
export const realRedisUrl = process.env.TEST_REDIS_URL || null;

export interface TestDatabase {
  /** null: embedded (started by the service itself, in memory). */
  url: string | null;
  drop(): Promise<void>;
}

/** A fresh database per test file on the real server, so that files run in parallel. */
export async function createTestDatabase(): Promise<TestDatabase> {
  if (!realDatabaseUrl) return { url: null, drop: async () => undefined };
  const name = `dts_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new Client({ connectionString: realDatabaseUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(realDatabaseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new Client({ connectionString: realDatabaseUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}
