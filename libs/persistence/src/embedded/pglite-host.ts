import { PGlite } from '@electric-sql/pglite';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { EMBEDDED_SETTINGS } from './embedded-settings';
import { PgliteWireServer } from './pglite-wire-server';
import { unpackTemplate } from './unpack-template';

/**
 * The embedded database's own thread: PGlite (PostgreSQL in WebAssembly) and the wire server in
 * front of it. A statement runs synchronously inside WebAssembly for as long as it takes; on the
 * api's thread a slow one stopped every request, health check and ingest of every account (a
 * series over two years of one device: up to 2 minutes). Here it holds only this thread and the
 * connections waiting for the one backend, while the api's event loop goes on serving.
 *
 * The api, the in-process worker and BullMQ reach it over the loopback socket, exactly as they
 * reach a real server. The parent talks to the thread with the messages below.
 */

export interface PgliteHostData {
  /** PGlite's data directory; null keeps the database in memory. */
  dataPath: string | null;
  /** A template data directory (tar) a new database starts from; null runs initdb. */
  templatePath: string | null;
  maxConnections: number;
}

export type PgliteHostCommand = { type: 'stop' } | { type: 'dump'; path: string };

export type PgliteHostEvent =
  { type: 'ready'; port: number } | { type: 'failed'; message: string } | { type: 'stopped' } | { type: 'dumped' } | { type: 'dump-failed'; message: string };

async function host(data: PgliteHostData, port: NonNullable<typeof parentPort>): Promise<void> {
  const send = (event: PgliteHostEvent) => port.postMessage(event);
  let db: PGlite;
  let server: PgliteWireServer;
  try {
    // A data directory is unpacked from the template on disk; only one in memory needs PGlite to load the tar.
    if (data.templatePath && data.dataPath) unpackTemplate(data.templatePath, data.dataPath);
    const loadDataDir = data.templatePath && !data.dataPath ? new Blob([readFileSync(data.templatePath)]) : undefined;
    const startParams = [...PGlite.defaultStartParams, ...Object.entries(EMBEDDED_SETTINGS).flatMap(([name, value]) => ['-c', `${name}=${value}`])];
    db = await PGlite.create(data.dataPath ?? undefined, { loadDataDir, startParams });
    server = new PgliteWireServer(db, data.maxConnections);
    send({ type: 'ready', port: await server.listen('127.0.0.1', 0) });
  } catch (error) {
    send({ type: 'failed', message: error instanceof Error ? error.message : String(error) });
    return;
  }
  port.on('message', (command: PgliteHostCommand) => {
    if (command.type === 'stop') {
      void (async () => {
        await server.close().catch(() => undefined);
        await db.close().catch(() => undefined);
        send({ type: 'stopped' });
      })();
    } else {
      void dump(db, server, command.path).then(
        () => send({ type: 'dumped' }),
        (error: unknown) => send({ type: 'dump-failed', message: error instanceof Error ? error.message : String(error) }),
      );
    }
  });
}

/** The data directory as a tar at `path` (a temporary name first, so that a reader never sees half of one). */
async function dump(db: PGlite, server: PgliteWireServer, path: string): Promise<void> {
  await server.close();
  await db.exec('CHECKPOINT');
  const tar = await db.dumpDataDir('none');
  const partial = `${path}.${process.pid}.partial`;
  writeFileSync(partial, Buffer.from(await tar.arrayBuffer()));
  renameSync(partial, path);
}

if (!isMainThread && parentPort) void host(workerData as PgliteHostData, parentPort);
