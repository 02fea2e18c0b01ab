import { createServer, type Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import { drainableServer } from './http-drain';

/** Holds the event loop, as a busy process does between two of its iterations. */
function busyFor(ms: number): void {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    // the loop is held: no timer, no socket is served meanwhile
  }
}

/** What a raw client read until its connection ended, and how it ended. */
function exchange(socket: Socket): Promise<{ text: string; error: string | null }> {
  return new Promise((resolve) => {
    let text = '';
    let error: string | null = null;
    socket.on('data', (d: Buffer) => (text += d.toString('latin1')));
    socket.on('error', (e: NodeJS.ErrnoException) => (error = e.code ?? e.message));
    socket.on('close', () => resolve({ text, error }));
  });
}

describe('drainableServer', () => {
  let server: Server;
  let port: number;
  let drain: () => Promise<void>;

  beforeEach(async () => {
    // Answered a moment later, as the service's handlers answer (after the drain's own listener).
    server = createServer((_req, res) => setImmediate(() => res.end('answered')));
    // A grace longer than the test: the listener stays open, only the idle sweep acts.
    drain = drainableServer(server, 5_000);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as { port: number }).port;
  });
  afterEach(() => {
    server.closeAllConnections();
    server.close();
  });

  it('answers a request that reached a connection accepted during the drain but not yet read when the idle sweep runs', async () => {
    void drain();
    const accepted = new Promise<void>((resolve) => server.once('connection', () => resolve()));
    const client = connect(port, '127.0.0.1');
    const ended = exchange(client);
    await accepted;
    // The request is sent now, and the loop is held past the sweep's interval: at the next
    // iteration the sweep's timer runs before the poll that reads the request.
    client.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
    busyFor(400);
    const { text, error } = await ended;
    expect(error).toBeNull();
    expect(text).toMatch(/^HTTP\/1\.1 200 /);
    expect(text).toMatch(/Connection: close/i);
    expect(text.endsWith('answered')).toBe(true);
  });

  it('closes a kept-alive connection once it has been answered, and one opened and never used', async () => {
    const used = connect(port, '127.0.0.1');
    const usedEnded = exchange(used);
    used.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
    await new Promise((resolve) => used.once('data', resolve));
    const unused = connect(port, '127.0.0.1');
    const unusedEnded = exchange(unused);
    await new Promise((resolve) => unused.once('connect', resolve));
    // Both end within the grace: drain() resolves once the listener has closed and no connection is left.
    await drain();
    expect((await usedEnded).text).toMatch(/answered$/);
    expect((await unusedEnded).text).toBe('');
  }, 15_000);
});
