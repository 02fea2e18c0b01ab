import { threadEntry } from '@dts/platform';
import { Worker } from 'node:worker_threads';
import type { PgliteHostCommand, PgliteHostData, PgliteHostEvent } from './pglite-host';

/** The parent's side of the embedded database's thread (pglite-host.ts). */
export interface PgliteHost {
  /** The loopback port its wire server listens on. */
  readonly port: number;
  /** Writes the data directory as a tar to `path` (the server stops taking connections first). */
  dump(path: string): Promise<void>;
  /** Closes the server and the database, then ends the thread. */
  stop(): Promise<void>;
}

/**
 * Starts the thread and waits until its server listens. `onLost` hears of a thread that ended
 * (crashed, ran out of memory) without being stopped.
 */
export function startPgliteHost(data: PgliteHostData, onLost?: (error: Error) => void): Promise<PgliteHost> {
  const worker = new Worker(threadEntry(__filename, __dirname, 'pglite-host.js'), { workerData: data });
  let stopping = false;
  const waiters = new Set<(event: PgliteHostEvent) => void>();
  const next = (accept: (event: PgliteHostEvent) => boolean) =>
    new Promise<PgliteHostEvent>((resolve) => {
      const waiter = (event: PgliteHostEvent) => {
        if (!accept(event)) return;
        waiters.delete(waiter);
        resolve(event);
      };
      waiters.add(waiter);
    });
  worker.on('message', (event: PgliteHostEvent) => {
    for (const waiter of [...waiters]) waiter(event);
  });
  const exited = new Promise<number>((resolve) => worker.once('exit', resolve));
  let lastError: Error | null = null;
  worker.on('error', (error) => {
    lastError = error;
  });

  return new Promise<PgliteHost>((resolve, reject) => {
    void exited.then((code) => {
      const error = lastError ?? new Error(`the embedded database's thread ended (exit code ${code})`);
      // Before 'ready' this rejects the start; after it, only an unexpected end is news.
      reject(error);
      for (const waiter of [...waiters]) waiter({ type: 'failed', message: error.message });
      if (!stopping) onLost?.(error);
    });
    void next((e) => e.type === 'ready' || e.type === 'failed').then((event) => {
      if (event.type !== 'ready') {
        stopping = true;
        void worker.terminate();
        reject(new Error(`the embedded database could not start: ${event.type === 'failed' ? event.message : event.type}`));
        return;
      }
      const send = (command: PgliteHostCommand) => worker.postMessage(command);
      resolve({
        port: event.port,
        async dump(path) {
          const done = next((e) => e.type === 'dumped' || e.type === 'dump-failed' || e.type === 'failed');
          send({ type: 'dump', path });
          const outcome = await done;
          if (outcome.type !== 'dumped')
            throw new Error(`the embedded database could not be written to ${path}: ${'message' in outcome ? outcome.message : ''}`);
        },
        async stop() {
          if (stopping) return;
          stopping = true;
          const closed = next((e) => e.type === 'stopped' || e.type === 'failed');
          send({ type: 'stop' });
          await closed;
          // The database is closed: whatever the thread still holds (WebAssembly's heap) goes with it.
          await worker.terminate();
        },
      });
    });
  });
}
