import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { ensureEmbeddedTemplate } from './embedded-template';
import { startPgliteHost } from './pglite-host-client';

export interface EmbeddedPostgres {
  /** postgres:// URL of the socket server, for TypeORM, pg and BullMQ alike. */
  readonly url: string;
  stop(): Promise<void>;
}

/**
 * Connections the embedded server must accept for a process with this pool size: the pool, the
 * pool of user reads (ReadDatabase, at most as large), the migrator, and per queue BullMQ's
 * producer and worker pools with their LISTEN clients. The server refuses connections beyond it,
 * and a BullMQ worker that cannot connect silently waits.
 */
export function embeddedConnectionsFor(poolSize: number, queues = EMBEDDED_QUEUE_BUDGET): number {
  return 2 * poolSize + 2 + queues * 8;
}

/** Queues a process may open (libs/domain QUEUES has fewer; the margin is for the next ones). */
const EMBEDDED_QUEUE_BUDGET = 20;

export class DataDirInUseError extends Error {
  constructor(dataDir: string, pid: number) {
    super(`DATA_DIR ${dataDir} is in use by process ${pid}: stop it, or give this process another DATA_DIR`);
    this.name = 'DataDirInUseError';
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * PGlite would let two processes open one data directory and corrupt it: a lock file holding the
 * owner's pid keeps the second out. A lock left by a process that died is taken over.
 */
function takeLock(dataDir: string): () => void {
  const file = join(dataDir, 'pglite.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, 'wx', 0o600);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(file, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const pid = Number(readFileSync(file, 'utf8').trim());
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && isAlive(pid)) throw new DataDirInUseError(dataDir, pid);
      rmSync(file, { force: true });
    }
  }
  throw new Error(`could not take the lock ${file}`);
}

/**
 * Starts PGlite (PostgreSQL in WebAssembly) on a thread of its own and serves it over the wire
 * protocol on loopback, so that TypeORM, pg and BullMQ use it exactly as they use a real server,
 * and a slow statement holds that thread, never the caller's event loop (pglite-host.ts).
 * `dataDir` null keeps everything in memory (tests). `onLost` is called when the database's
 * thread ends without being stopped: nothing can be served after that. `withoutTemplate`: a new
 * database is made by initdb rather than from the migrated template (a test of a migration itself).
 */
export async function startEmbeddedPostgres(options: {
  dataDir: string | null;
  maxConnections: number;
  onLost?: (error: Error) => void;
  withoutTemplate?: boolean;
}): Promise<EmbeddedPostgres> {
  let release = () => undefined as void;
  let dataPath: string | null = null;
  if (options.dataDir) {
    mkdirSync(options.dataDir, { recursive: true });
    release = takeLock(options.dataDir);
    dataPath = join(options.dataDir, 'pgdata');
  }
  try {
    // A new database (in memory, or a DATA_DIR PGlite has not initialised) starts from the template.
    const isNew = !dataPath || !existsSync(join(dataPath, 'PG_VERSION'));
    const templatePath = isNew && !options.withoutTemplate ? await ensureEmbeddedTemplate() : null;
    // Connections beyond maxConnections are refused, so it must cover every pool.
    const host = await startPgliteHost({ dataPath, templatePath, maxConnections: options.maxConnections }, options.onLost);
    let stopped = false;
    return {
      url: `postgres://postgres@127.0.0.1:${host.port}/postgres`,
      async stop() {
        if (stopped) return;
        stopped = true;
        await host.stop();
        release();
      },
    };
  } catch (error) {
    release();
    throw error;
  }
}
