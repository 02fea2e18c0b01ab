import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { Server as NetServer } from 'node:net';

/** How often, while draining, connections that have fallen idle are closed. */
const IDLE_SWEEP_MS = 250;

/**
 * Graceful stop of the HTTP side, to run before Nest's own close: Nest destroys the modules (database
 * pools, queues) first and closes the server after, so a request still running at SIGTERM would
 * lose its database half-way. Draining first lets every request that reached the server finish
 * with its full answer, while the load balancer sends new ones to another instance.
 *
 * Returns `drain()`: answers what is in flight and whatever still arrives with `Connection: close`,
 * ends event streams, stops listening after `graceMs` (a new connection is then refused),
 * closes keep-alive connections as they fall idle, and resolves once every connection has ended.
 */
/**
 * `graceMs` (SHUTDOWN_DRAIN_GRACE_MS) is how long the listener stays open after the stop begins.
 * A connection the kernel has completed but the process not yet accepted (the loop was busy) would
 * be reset when the listening socket closes, and its request, sent in time, lost (behind nginx: a
 * 502 for a POST); and a load balancer or Kubernetes keeps sending new requests until it has seen
 * readiness fail. Meanwhile connections are accepted and answered with `Connection: close`.
 */
export function drainableServer(server: Server, graceMs: number): () => Promise<void> {
  const inFlight = new Set<ServerResponse>();
  let draining = false;

  server.on('request', (_req: IncomingMessage, res: ServerResponse) => {
    inFlight.add(res);
    if (draining) res.setHeader('Connection', 'close');
    // Answered with `Connection: close` while draining, its connection ends with it.
    res.on('close', () => inFlight.delete(res));
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
    return new Promise<void>((resolve) => {
      // Idle keep-alive connections are closed once anything sent before the stop has been read.
      const sweep = setInterval(() => server.closeIdleConnections(), IDLE_SWEEP_MS);
      // net.Server's close, not http.Server's: it stops listening (a new connection is refused)
      // and calls back once the last connection has ended, but leaves the open ones alone.
      // http.Server's would also drop at once every connection it counts idle, and that includes
      // one just accepted whose request is in the socket but not parsed yet.
      setTimeout(() => {
        NetServer.prototype.close.call(server, () => {
          clearInterval(sweep);
          resolve();
        });
      }, graceMs);
    });
  };
}
