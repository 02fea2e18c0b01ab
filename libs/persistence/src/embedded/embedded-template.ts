import { createHash } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { migrateQueueTables } from '@dts/platform';
import { LATEST_SCHEMA_VERSION as QUEUE_SCHEMA_VERSION } from 'bullmq';
import { runMigrations } from '../data-source';
import { MIGRATIONS } from '../migrations';
import { startPgliteHost } from './pglite-host-client';

/**
 * A new embedded database starts from a template: a data directory on which PGlite's initdb, every
 * migration and BullMQ's own (its queue tables: the embedded database's queues live there) have
 * already run, kept as a tar. initdb alone takes 5–8 s on a 2-core machine
 * (and every test suite on the embedded database starts a new one); unpacking the template takes
 * about a second. `npm run build` makes it, so a fresh DATA_DIR, a new container from the image and
 * each test process start from it; a process that finds none makes it once and uses it.
 *
 * It lives where build tools keep caches, node_modules/.cache (it belongs to the installed PGlite,
 * and the Docker image copies node_modules). Its name is a digest of PGlite's version, BullMQ's
 * schema version and every migration's code: a new or edited migration, or another PGlite or
 * BullMQ schema, names another template, so a stale one is never loaded.
 */
const PGLITE_ENTRY = require.resolve('@electric-sql/pglite');
const NODE_MODULES = PGLITE_ENTRY.slice(0, PGLITE_ENTRY.lastIndexOf('/node_modules/') + '/node_modules'.length);
export const EMBEDDED_TEMPLATE_DIR = join(NODE_MODULES, '.cache', 'dts-embedded');

/** Another process building the template for longer than this has died: its claim is taken over. */
const BUILD_CLAIM_STALE_MS = 120_000;
/** Templates of other versions not used for this long are removed when a new one is written. */
const UNUSED_TEMPLATE_MS = 7 * 24 * 3_600_000;

/** The template's name: a digest of PGlite's version and of each migration's name and code. */
export function templateKey(pgliteVersion: string, migrations: readonly (abstract new (...args: never[]) => unknown)[]): string {
  const hash = createHash('sha256').update(`pglite ${pgliteVersion}\nbullmq schema ${QUEUE_SCHEMA_VERSION}\n`);
  for (const migration of migrations) hash.update(`${migration.name}\n${migration.toString()}\n`);
  return hash.digest('hex').slice(0, 20);
}

/** The template's path for the installed PGlite and these migrations. */
export function embeddedTemplatePath(): string {
  const pglite = JSON.parse(readFileSync(join(NODE_MODULES, '@electric-sql', 'pglite', 'package.json'), 'utf8')) as { version: string };
  return join(EMBEDDED_TEMPLATE_DIR, `pgdata-${templateKey(pglite.version, MIGRATIONS)}.tar`);
}

/** Claims the right to build the template; false when another live process holds it. */
function claim(path: string): (() => void) | null {
  const file = `${path}.building`;
  try {
    if (Date.now() - statSync(file).mtimeMs > BUILD_CLAIM_STALE_MS) rmSync(file, { force: true });
  } catch {
    // no claim yet
  }
  try {
    closeSync(openSync(file, 'wx', 0o600));
    return () => rmSync(file, { force: true });
  } catch {
    return null;
  }
}

function removeUnused(current: string): void {
  for (const name of readdirSync(EMBEDDED_TEMPLATE_DIR)) {
    const path = join(EMBEDDED_TEMPLATE_DIR, name);
    if (path === current || !name.endsWith('.tar')) continue;
    if (Date.now() - statSync(path).atimeMs > UNUSED_TEMPLATE_MS) rmSync(path, { force: true });
  }
}

/**
 * Makes the template when there is none: initdb in memory, every migration through the same wire
 * server the service uses, a checkpoint, and the data directory written as a tar (to a temporary
 * name first, so a reader never sees half of one). Returns its path, or null when another process
 * is making it or the cache cannot be written (a read-only install): the caller then runs initdb.
 */
export async function ensureEmbeddedTemplate(): Promise<string | null> {
  const path = embeddedTemplatePath();
  if (existsSync(path)) return path;
  try {
    mkdirSync(EMBEDDED_TEMPLATE_DIR, { recursive: true });
  } catch {
    return null;
  }
  const release = claim(path);
  if (!release) return null;
  try {
    const host = await startPgliteHost({ dataPath: null, templatePath: null, maxConnections: 4 });
    try {
      const url = `postgres://postgres@127.0.0.1:${host.port}/postgres`;
      await runMigrations({ url, poolSize: 1 });
      await migrateQueueTables({ databaseUrl: url, embedded: true });
      await host.dump(path);
    } finally {
      await host.stop();
    }
    removeUnused(path);
    return path;
  } catch {
    return null;
  } finally {
    release();
  }
}
