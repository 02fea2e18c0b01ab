import type { LookupAddress } from 'node:dns';
import { Agent as HttpAgent, createServer, type Server } from 'node:http';
import { type AddressInfo, createServer as createNetServer, type Server as NetServer } from 'node:net';
import { ForbiddenAddressError, guardedLookup, outboundRequest, type Resolver } from './outbound-http';

/** A resolver stub that gives the answers in turn (the last one again when they run out), and counts the questions. */
function resolverOf(...answers: string[][]): Resolver & { asked: string[] } {
  const asked: string[] = [];
  const resolver = ((hostname, _options, callback) => {
    asked.push(hostname);
    const answer = answers[Math.min(asked.length - 1, answers.length - 1)]!;
    setImmediate(() =>
      callback(
        null,
        answer.map((address): LookupAddress => ({ address, family: address.includes(':') ? 6 : 4 })),
      ),
    );
  }) as Resolver & { asked: string[] };
  resolver.asked = asked;
  return resolver;
}

const lookupOnce = (lookup: ReturnType<typeof guardedLookup>, all: boolean, hostname = 'device-network.example') =>
  new Promise<{ error: Error | null; address: unknown }>((resolve) => {
    lookup(hostname, { all } as never, ((error: Error | null, address: unknown) => resolve({ error, address })) as never);
  });

describe('guarded lookup: every resolved address judged when the connection is made', () => {
  it.each([
    [['127.0.0.1']],
    [['10.1.2.3']],
    [['169.254.169.254']],
    [['100.64.0.1']],
    [['::1']],
    [['fd00::1']],
    [['fe80::1']],
    [['::ffff:127.0.0.1']],
    // One forbidden address among public ones is enough: the connection could pick it.
    [['8.8.4.4', '127.0.0.1']],
    [['2606:4700:4700::1111', '::1']],
  ])('refuses a name that resolves to %j', async (addresses) => {
    const { error } = await lookupOnce(guardedLookup(false, resolverOf(addresses)), true);
    expect(error).toBeInstanceOf(ForbiddenAddressError);
    expect(error!.message).toMatch(/loopback, link-local or private/);
  });

  it('passes public answers on, in the form asked for, and private ones only when allowed', async () => {
    expect(await lookupOnce(guardedLookup(false, resolverOf(['8.8.4.4', '2606:4700:4700::1111'])), true)).toEqual({
      error: null,
      address: [
        { address: '8.8.4.4', family: 4 },
        { address: '2606:4700:4700::1111', family: 6 },
      ],
    });
    expect(await lookupOnce(guardedLookup(false, resolverOf(['8.8.4.4'])), false)).toEqual({ error: null, address: '8.8.4.4' });
    expect((await lookupOnce(guardedLookup(true, resolverOf(['127.0.0.1'])), true)).error).toBeNull();
    expect((await lookupOnce(guardedLookup(false, resolverOf([])), true)).error).toMatchObject({ code: 'ENOTFOUND' });
  });
});

describe('outboundRequest', () => {
  let canary: Server;
  let port: number;
  const hits: string[] = [];

  beforeAll(async () => {
    canary = createServer((req, res) => {
      hits.push(`${req.method} ${req.url}`);
      if (req.url === '/redirect') res.writeHead(302, { Location: `http://127.0.0.1:${port}/landed` }).end();
      else res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"id":"canary"}');
    });
    await new Promise<void>((r) => canary.listen(0, '127.0.0.1', () => r()));
    port = (canary.address() as AddressInfo).port;
  });
  beforeEach(() => {
    hits.length = 0;
  });
  afterAll(() => new Promise((r) => canary.close(r)));

  const post = (url: string, allowPrivate: boolean, resolver?: Resolver) =>
    outboundRequest(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}', timeoutMs: 5_000, allowPrivate, resolver });

  it('DNS rebinding: a name that was public when checked and is loopback when connecting is refused, and nothing is sent', async () => {
    // First answer: what a check before the call would have seen; second: what the connection gets.
    const resolver = resolverOf(['8.8.4.4'], ['127.0.0.1']);
    expect((await lookupOnce(guardedLookup(false, resolver), true, 'rebinding.example')).error).toBeNull();
    await expect(post(`http://rebinding.example:${port}/api`, false, resolver)).rejects.toBeInstanceOf(ForbiddenAddressError);
    expect(resolver.asked).toEqual(['rebinding.example', 'rebinding.example']);
    expect(hits).toEqual([]);
  });

  it('connects to the address it judged (the canary, when private addresses are allowed)', async () => {
    const resolver = resolverOf(['127.0.0.1']);
    expect(await post(`http://pinned.example:${port}/api`, true, resolver)).toEqual({ status: 200, text: '{"id":"canary"}' });
    expect(hits).toEqual(['POST /api']);
  });

  it.each(['127.0.0.1', '[::ffff:127.0.0.1]', '2130706433', '0x7f000001', '0177.0.0.1', '127.1'])(
    'refuses the IP literal %s before connecting',
    async (host) => {
      await expect(post(`http://${host}:${port}/api`, false)).rejects.toBeInstanceOf(ForbiddenAddressError);
      expect(hits).toEqual([]);
    },
  );

  it('returns a redirect as it is, without following it', async () => {
    expect(await post(`http://127.0.0.1:${port}/redirect`, true)).toMatchObject({ status: 302 });
    expect(hits).toEqual(['POST /redirect']);
  });

  it.each([
    ['file:///etc/passwd', /http/],
    ['ftp://8.8.4.4/', /http/],
    [`http://user:pw@127.0.0.1:1/`, /credentials/],
    ['not a url', /not valid/],
  ])('refuses %s', async (url, problem) => {
    await expect(post(url, true)).rejects.toThrow(problem);
    expect(hits).toEqual([]);
  });
});

describe('outboundRequest over a kept-alive connection', () => {
  // A raw server so the reset is exact: the first request on a connection is answered with
  // keep-alive, the next one on the same connection is met with a TCP reset (what a receiver
  // does that closed the idle connection as the request went out), or every request is reset.
  let server: NetServer;
  let port: number;
  let resetAll = false;
  let connections = 0;
  let answered = 0;

  beforeAll(async () => {
    server = createNetServer((socket) => {
      connections++;
      let requests = 0;
      socket.on('data', (chunk) => {
        if (!chunk.toString('latin1').includes('\r\n\r\n')) return;
        requests++;
        if (resetAll || requests > 1) return socket.resetAndDestroy();
        answered++;
        socket.write('HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: keep-alive\r\n\r\nok');
      });
      socket.on('error', () => undefined);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise((r) => server.close(r)));

  const post = (agent: HttpAgent) =>
    outboundRequest(`http://127.0.0.1:${port}/hook`, { method: 'POST', headers: {}, body: '{}', timeoutMs: 5_000, allowPrivate: true, agent });

  it('sends once more on a new connection when the reused one is reset before any answer', async () => {
    const agent = new HttpAgent({ keepAlive: true, maxSockets: 1 });
    connections = answered = 0;
    resetAll = false;
    expect(await post(agent)).toEqual({ status: 200, text: 'ok' });
    expect(await post(agent)).toEqual({ status: 200, text: 'ok' });
    expect({ connections, answered }).toEqual({ connections: 2, answered: 2 });
    agent.destroy();
  });

  it('reports a reset on a new connection (the receiver’s answer), sent once', async () => {
    const agent = new HttpAgent({ keepAlive: true, maxSockets: 1 });
    connections = answered = 0;
    resetAll = true;
    await expect(post(agent)).rejects.toMatchObject({ code: 'ECONNRESET' });
    expect(connections).toBe(1);
    agent.destroy();
  });
});
