import type { IncomingMessage, Server, ServerResponse } from 'node:http';

/**
 * Graceful stop of the HTTP side, to run before Nest's own close: Nest destroys the modules (database
 * pools, queues) first and closes the server after, so a request still running at SIGTERM would
 * lose its database half-way. Draining first lets every request that reached the server finish
 * with its full answer, while the load balancer sends new ones to another instance.
 *
 * Returns `drain()`: stops listening (a new connection is refused), answers what is in flight with
 * `Connection: close`, ends event streams, closes keep-alive connections as soon as they fall idle,
 * and resolves once every connection has ended.
 */
export function drainableServer(server: Server): () => Promise<void> {
  const inFlight = new Set<ServerResponse>();
  let draining = false;

  server.on('request', (_req: IncomingMessage, res: ServerResponse) => {
    inFlight.add(res);
    if (draining) res.setHeader('Connection', 'close');
    res.on('close', () => {
      inFlight.delete(res);
      // The connection this answer went out on is idle now: no further request will come on it.
      if (draining) server.closeIdleConnections();
    });
  });

  return () => {
    if (draining) return Promise.resolve();
    draining = true;
    for (const res of inFlight) {
      if (!res.headersSent) res.setHeader('Connection', 'close');
      // An event stream (the live feed) never ends by itself; its client reconnects (`retry:`) to
      // another instance.
      else if (String(res.getHeader('Content-Type') ?? '').startsWith('text/event-stream')) res.end();
    }
    // close() refuses new connections, closes the idle ones, and calls back once the last has ended.
    return new Promise<void>((resolve) => server.close(() => resolve()));
  };
}
