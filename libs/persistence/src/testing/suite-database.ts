import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { startEmbeddedPostgres } from '../embedded/embedded-postgres';
import type { TimeseriesSettings } from '../timeseries/timeseries-settings';

export interface SuiteDatabase {
  url: string;
  /** An in-memory embedded PostgreSQL rather than a database on TEST_DATABASE_URL's server. */
  embedded: boolean;
  stop(): Promise<void>;
}

/**
 * A database of its own for a test suite (this library's and those built on it): a new one on
 * TEST_DATABASE_URL's server when it is set (dropped by `stop`), else an in-memory embedded
 * PostgreSQL allowing `maxConnections`. Migrations are the suite's to run (an embedded one starts
 * from the migrated template unless `empty`).
 */
export async function suiteDatabase(
  prefix: string,
  { maxConnections = 10, empty = false }: { maxConnections?: number; empty?: boolean } = {},
): Promise<SuiteDatabase> {
  const real = process.env.TEST_DATABASE_URL || null;
  if (!real) {
    const db = await startEmbeddedPostgres({ dataDir: null, maxConnections, withoutTemplate: empty });
    return { url: db.url, embedded: true, stop: () => db.stop() };
  }
  const admin = async (sql: string) => {
    const c = new Client({ connectionString: real });
    await c.connect();
    await c.query(sql).finally(() => c.end());
  };
  const name = `${prefix}_${randomBytes(4).toString('hex')}`;
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(real);
  url.pathname = `/${name}`;
  return { url: url.toString(), embedded: false, stop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

/** The time-series settings of a suite: the defaults (monthly partitions, everything kept), with `over` changed. */
export function suiteTimeseriesSettings(over: Partial<TimeseriesSettings> = {}): TimeseriesSettings {
  return {
    partitionInterval: 'month',
    partitionsAhead: 2,
    uplinkRetentionDays: null,
    hourlyRollupRetentionDays: null,
    dailyRollupRetentionDays: null,
    auditRetentionDays: 365,
    ...over,
  };
}
