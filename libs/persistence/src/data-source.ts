import { DataSource, type DataSourceOptions } from 'typeorm';
import { ENTITIES } from './entities';
import { MIGRATIONS } from './migrations';

export interface DatabaseTarget {
  url: string;
  poolSize: number;
  /** The embedded database (one session behind its connections): no named prepared statements. */
  embedded?: boolean;
}

export function dataSourceOptions(target: DatabaseTarget): DataSourceOptions {
  return {
    type: 'postgres',
    url: target.url,
    entities: ENTITIES,
    migrations: MIGRATIONS,
    migrationsTableName: 'schema_migrations',
    // The schema is changed by migrations only, never inferred from the entities.
    synchronize: false,
    migrationsRun: false,
    extra: { max: target.poolSize, connectionTimeoutMillis: 5_000, idleTimeoutMillis: 30_000 },
  };
}

/** An arbitrary fixed key: every instance that starts at once takes the same lock. */
const MIGRATION_LOCK_KEY = 7_362_201_001;

/**
 * Runs pending migrations under an advisory lock, so that two api instances starting together do
 * not both apply them. Returns the names of the migrations applied.
 */
export async function runMigrations(target: DatabaseTarget): Promise<string[]> {
  const ds = new DataSource({ ...dataSourceOptions(target), extra: { max: 1 } });
  await ds.initialize();
  try {
    await ds.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    try {
      const applied = await ds.runMigrations({ transaction: 'each' });
      return applied.map((m) => m.name);
    } finally {
      await ds.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
    }
  } finally {
    await ds.destroy();
  }
}

/** True when migrations are still to run: the api is not ready while they are. */
export async function hasPendingMigrations(ds: DataSource): Promise<boolean> {
  return ds.showMigrations();
}
