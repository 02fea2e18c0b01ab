import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { Server as NetServer, type Socket } from 'node:net';

/** How often, while draining, connections that have fallen idle are closed. */
const IDLE_SWEEP_MS = 250;
/** A connection open this long without a request while draining is closed as idle (a request sent in time has been read by then). */
const UNUSED_CONNECTION_MS = 1_000;

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
  /** Each open connection: its requests in progress, and whether it has answered one yet. */
  const connections = new Map<Socket, { active: number; answered: boolean; openedAt: number }>();
  let draining = false;

  server.on('connection', (socket: Socket) => {
    connections.set(socket, { active: 0, answered: false, openedAt: Date.now() });
    socket.once('close', () => connections.delete(socket));
  });
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    inFlight.add(res);
    const connection = connections.get(req.socket);
    if (connection) connection.active++;
    if (draining) res.setHeader('Connection', 'close');
    // Answered with `Connection: close` while draining, its connection ends with it.
    res.on('close', () => {
      inFlight.delete(res);
      if (connection) {
        connection.active--;
        connection.answered = true;
      }
    });
  });

  /**
   * Closes the connections that wait for nothing: kept alive after an answer, or opened and never
   * used. Not `server.closeIdleConnections()`: Node counts a connection idle until its parser has
   * begun a request, and that includes one accepted a moment ago whose request is in the socket,
   * not yet read (a busy loop reads it an iteration later). Closed, its request, sent in time,
   * was lost: a connection reset (seen in faults-processes on a loaded machine).
   */
  const closeIdle = () => {
    const now = Date.now();
    for (const [socket, c] of connections) {
      if (c.active === 0 && (c.answered || now - c.openedAt >= UNUSED_CONNECTION_MS)) socket.destroy();
    }
  };

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
      const sweep = setInterval(closeIdle, IDLE_SWEEP_MS);
      // net.Server's close, not http.Server's: it stops listening (a new connection is refused)
      // and calls back once the last connection has ended, but leaves the open ones alone.
      // http.Server's would also drop at once every connection it counts idle (see closeIdle).
      setTimeout(() => {
        // After the loop's next poll, not in this timers phase: a loop busy past the grace has
        // connections the kernel completed and the process not yet accepted, which closing the
        // listening socket now would reset. The poll phase accepts them all first.
        setImmediate(() => {
          NetServer.prototype.close.call(server, () => {
            clearInterval(sweep);
            resolve();
          });
        });
      }, graceMs);
    });
  };
}
