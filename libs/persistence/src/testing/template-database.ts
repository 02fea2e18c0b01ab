import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { runMigrations } from '../data-source';
import { templateKey } from '../embedded/embedded-template';
import { MIGRATIONS } from '../migrations';
import { suiteDatabase } from './suite-database';

/**
 * A migrated database for a test file, cloned from a template migrated once: tests of services
 * (no HTTP) and of repositories start from the schema the service runs on without paying for
 * every migration in every file.
 *
 * - On TEST_DATABASE_URL's server: a template database named after a digest of every migration's
 *   code is made and migrated by the first worker that needs it (an advisory lock keeps the other
 *   workers of the run, and of concurrent runs, waiting rather than migrating it twice), marked
 *   IS_TEMPLATE once migrated, and kept across runs: a new or edited migration names another one.
 *   The name carries the UTC month too: the time-partitions migration bounds the partition it makes
 *   by the month after it ran, so a template of last month would refuse this month's uplinks to a
 *   spec without the worker's partition upkeep. Making a template drops the others (older months,
 *   older migrations). Each file then gets `CREATE DATABASE … TEMPLATE …`, a file copy inside the
 *   server.
 * - Embedded (TEST_DATABASE_URL empty): an in-memory PGlite started from the migrated data
 *   directory the embedded service itself starts from (embedded-template.ts, a tar made once per
 *   install and migration set); migrations then run as a check, and do the work only if the
 *   template could not be made (another process was making it).
 */
export interface MigratedTestDatabase {
  url: string;
  embedded: boolean;
  /** Milliseconds it took to have it migrated. */
  readyMs: number;
  /** Drops it (or stops the embedded one); safe to call more than once. */
  stop(): Promise<void>;
}

/** Any constant of our own: the lock every worker takes to make or check the template. */
const TEMPLATE_LOCK_KEY = 0x64747374; // "dtst"

/** The template database's name on the real server for the current migrations. */
export function templateDatabaseName(now = new Date()): string {
  const month = now.toISOString().slice(0, 7).replace('-', '');
  return `${TEMPLATE_PREFIX}${templateKey('postgresql', MIGRATIONS).slice(0, 16)}_${month}`;
}

const TEMPLATE_PREFIX = 'dts_tpl_';

let templateReady: Promise<string> | null = null;

async function withAdmin<T>(url: string, work: (c: Client) => Promise<T>): Promise<T> {
  const c = new Client({ connectionString: url });
  await c.connect();
  try {
    return await work(c);
  } finally {
    await c.end();
  }
}

function databaseUrl(server: string, name: string): string {
  const url = new URL(server);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Makes the template on `server` unless it is there (once per process; the lock orders processes). */
function ensureTemplate(server: string): Promise<string> {
  templateReady ??= withAdmin(server, async (admin) => {
    const name = templateDatabaseName();
    await admin.query('SELECT pg_advisory_lock($1)', [TEMPLATE_LOCK_KEY]);
    try {
      const { rows } = await admin.query<{ datistemplate: boolean }>('SELECT datistemplate FROM pg_database WHERE datname = $1', [name]);
      if (rows[0]?.datistemplate) return name;
      // Left half-migrated by a run that died: IS_TEMPLATE is set only after the last migration.
      if (rows.length) await admin.query(`DROP DATABASE ${name} WITH (FORCE)`);
      await admin.query(`CREATE DATABASE ${name}`);
      await runMigrations({ url: databaseUrl(server, name), poolSize: 1 });
      // No connection may stay on a template while it is copied: refuse them from now on.
      await admin.query(`ALTER DATABASE ${name} WITH IS_TEMPLATE true ALLOW_CONNECTIONS false`);
      await dropOtherTemplates(admin, name);
      return name;
    } finally {
      await admin.query('SELECT pg_advisory_unlock($1)', [TEMPLATE_LOCK_KEY]);
    }
  }).catch((error: unknown) => {
    templateReady = null;
    throw error;
  });
  return templateReady;
}

/** Templates of other months or migrations: dropped when a new one is made (a run still copying one keeps it). */
async function dropOtherTemplates(admin: Client, current: string): Promise<void> {
  const { rows } = await admin.query<{ datname: string }>(`SELECT datname FROM pg_database WHERE datname LIKE $1 AND datname <> $2`, [
    `${TEMPLATE_PREFIX}%`,
    current,
  ]);
  for (const { datname } of rows) {
    try {
      await admin.query(`ALTER DATABASE ${datname} WITH IS_TEMPLATE false`);
      await admin.query(`DROP DATABASE ${datname}`);
    } catch {
      // In use by another run's CREATE DATABASE: the next new template drops it.
    }
  }
}

/**
 * A migrated database of its own for a test file (see MigratedTestDatabase). `prefix` names it on
 * the real server (with the jest worker's id, so a leftover says who made it); `maxConnections`
 * bounds the embedded one, which refuses connections beyond it.
 */
export async function migratedTestDatabase(prefix = 'dts_svc', { maxConnections = 10 }: { maxConnections?: number } = {}): Promise<MigratedTestDatabase> {
  const started = Date.now();
  const server = process.env.TEST_DATABASE_URL || null;
  if (!server) {
    const db = await suiteDatabase(prefix, { maxConnections });
    try {
      await runMigrations({ url: db.url, poolSize: 1 });
    } catch (error) {
      await db.stop();
      throw error;
    }
    return { url: db.url, embedded: true, readyMs: Date.now() - started, stop: () => db.stop() };
  }
  const template = await ensureTemplate(server);
  const name = `${prefix}_w${process.env.JEST_WORKER_ID ?? '0'}_${randomBytes(4).toString('hex')}`;
  await withAdmin(server, (admin) => admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`));
  let dropped = false;
  return {
    url: databaseUrl(server, name),
    embedded: false,
    readyMs: Date.now() - started,
    async stop() {
      if (dropped) return;
      dropped = true;
      await withAdmin(server, (admin) => admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
  };
}
