import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/** Linux's default ephemeral range, used when /proc does not say (another system). */
const DEFAULT_EPHEMERAL = { low: 32_768, high: 60_999 } as const;
/** Below this lie the well-known and registered ports of services a machine runs (5432, 6379, 1883…). */
const LOWEST = 10_000;

/** The range the kernel takes a client connection's local port from. */
function ephemeralRange(): { low: number; high: number } {
  try {
    const [low, high] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
    if (Number.isInteger(low) && Number.isInteger(high) && low! > LOWEST) return { low: low!, high: high! };
  } catch {
    // not Linux: the default below
  }
  return DEFAULT_EPHEMERAL;
}

function listensOn(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen({ port, host: '127.0.0.1', exclusive: true }, () => server.close(() => resolve(true)));
  });
}

/**
 * A loopback port nobody listens on now, for a server a test starts (a child process, a broker, a
 * database it stops and starts again).
 *
 * Chosen at random below the kernel's ephemeral range, never from it (`listen(0)` would): there the
 * kernel also takes the local port of every outgoing connection. The fault suites open thousands
 * of connections while a database they stopped is down; one of them holding that database's port
 * when it starts again (EADDRINUSE), or a reconnecting client connected to itself on a port nobody
 * listens on, failed a suite now and then. Below the range only another test's choice can collide:
 * one in about 22,000, and the check here catches a port already taken.
 */
export async function freePort(): Promise<number> {
  const { low } = ephemeralRange();
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = LOWEST + Math.floor(Math.random() * (low - LOWEST));
    if (await listensOn(port)) return port;
  }
  throw new Error(`no free loopback port found between ${LOWEST} and ${low}`);
}
