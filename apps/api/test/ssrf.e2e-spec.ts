import { eventually, isForbiddenAddress, pause } from '@dts/platform';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTcpServer, isIP, type Server as TcpServer, type Socket } from 'node:net';
import { accountWithCredentials, bearer } from './support/accounts';
import { expectError, expectSuccess } from './support/envelope';
import { startTestService, type TestService } from './support/harness';
import { commandDispatchEnded } from './support/queues';

/*
 * SSRF (OWASP API7): a network's base_url is chosen by an account, and the worker calls it. A canary
 * HTTP listener (and a raw TCP one) on loopback records every connection; with the default
 * configuration (OUTBOUND_ALLOW_PRIVATE unset) none may ever reach them — not when the network is
 * configured (POST /user/network: 400 VALIDATION_FAILED naming base_url, nothing stored), not when a
 * command is handed over through a network that was stored while private addresses were allowed,
 * and not through a redirect from an allowed first hop. The positive control shows that the canary
 * does see a call when private addresses are allowed, so its silence means something.
 */

type Caller = Awaited<ReturnType<typeof accountWithCredentials>>;
interface Command {
  uid: number;
  status: string;
  reason: string | null;
}

const KEY = 'ssrf-test-api-key-0123456789';
const newEui = () => randomBytes(8).toString('hex').toUpperCase();
const listen = (server: Server | TcpServer, host: string, port = 0) =>
  new Promise<number>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve((server.address() as { port: number }).port));
  });
const close = (server: Server | TcpServer | undefined) => new Promise((r) => (server ? server.close(r) : r(undefined)));

/** Names of /etc/hosts that resolve to a loopback or private address (localhost and the machine's own names). */
function hostsFileNames(): string[] {
  let text = '';
  try {
    text = readFileSync('/etc/hosts', 'utf8');
  } catch {
    return [];
  }
  const names = new Set<string>();
  for (const line of text.split('\n')) {
    const [address, ...aliases] = line.replace(/#.*/, '').trim().split(/\s+/);
    if (!address || isIP(address) === 0 || !isForbiddenAddress(address)) continue;
    for (const name of aliases) if (/^[a-z0-9.-]+$/i.test(name)) names.add(name);
  }
  return [...names].slice(0, 8);
}

describe('SSRF: network base URLs never reach inside (canary on loopback)', () => {
  /** Default configuration: api and worker, private addresses refused. */
  let strict: TestService;
  /** An api instance on the same database that allows private addresses, without a worker: what stored the inside networks. */
  let lenientApi: TestService;
  /** Its own database, private addresses allowed, with a worker: the positive control. */
  let lenient: TestService;
  let alice: Caller;
  let carl: Caller;

  let canary: Server;
  let canary6: Server | undefined;
  let tcpCanary: TcpServer;
  let port: number;
  let tcpPort: number;
  /** Every request the HTTP canary saw, and every connection the TCP canary accepted. */
  const hits: string[] = [];
  const sockets = new Set<Socket>();

  const handler = (req: IncomingMessage, res: ServerResponse) => {
    hits.push(`http ${req.method} ${req.url}`);
    const redirect = /^\/r(301|302|307|308)\//.exec(req.url ?? '');
    if (redirect) {
      // An allowed first hop that sends the adapter elsewhere: to the TCP canary.
      res.writeHead(Number(redirect[1]), { Location: `http://127.0.0.1:${tcpPort}/landed` }).end();
      return;
    }
    res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ id: 'canary-queue-item' }));
  };

  const as = (svc: TestService, who: Caller) => ({
    get: (path: string) =>
      svc
        .http()
        .get(path)
        .set(...bearer(who.appToken)),
    post: (path: string, body?: object) =>
      svc
        .http()
        .post(path)
        .set(...bearer(who.appToken))
        .send(body ?? {}),
  });
  const networks = async (svc: TestService, who: Caller) => expectSuccess<{ uid: number; base_url: string }[]>(await as(svc, who).get('/user/network'));

  /** Registers a device on the network, sends it a command, and waits until the worker has decided. */
  const dispatch = async (svc: TestService, who: Caller, networkUid: number): Promise<Command> => {
    const eui = newEui();
    expectSuccess(await as(svc, who).post(`/user/device/${eui}`, { network_ref: networkUid }), 201);
    const { uid } = expectSuccess<Command>(await as(svc, who).post(`/user/device/command/${eui}`, { port: 1, payload_hex: '01' }), 201);
    const command = await eventually(
      async () => {
        const c = expectSuccess<Command[]>(await as(svc, who).get(`/user/device/command/${eui}`)).find((x) => x.uid === uid);
        return c !== undefined && c.status !== 'Created' && c;
      },
      { what: `command ${uid} to leave Created`, timeoutMs: 20_000 },
    );
    // Its job has ended too: no later attempt can reach the canary, so its hits are final.
    await commandDispatchEnded(svc, uid);
    return command;
  };

  beforeAll(async () => {
    canary = createHttpServer(handler);
    port = await listen(canary, '127.0.0.1');
    // The same port on ::1, where an IPv6 loopback URL would land (when the machine has IPv6).
    canary6 = createHttpServer(handler);
    await listen(canary6, '::1', port).catch(() => (canary6 = undefined));
    tcpCanary = createTcpServer((socket) => {
      hits.push(`tcp ${socket.remoteAddress}`);
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
    tcpPort = await listen(tcpCanary, '127.0.0.1');
    for (const s of [canary, canary6])
      s?.on('connection', (socket: Socket) => {
        sockets.add(socket);
        socket.on('close', () => sockets.delete(socket));
      });

    strict = await startTestService({ env: { AUTH_RATE_LIMIT_PER_MINUTE: '1000' } });
    lenientApi = await startTestService({
      sameDatabaseAs: strict,
      env: { OUTBOUND_ALLOW_PRIVATE: 'true', WORKER_IN_PROCESS: 'false', AUTH_RATE_LIMIT_PER_MINUTE: '1000' },
    });
    lenient = await startTestService({ env: { OUTBOUND_ALLOW_PRIVATE: 'true', AUTH_RATE_LIMIT_PER_MINUTE: '1000' } });
    [alice, carl] = await Promise.all([accountWithCredentials(strict, 'ssrf_alice'), accountWithCredentials(lenient, 'ssrf_carl')]);
  }, 120_000);

  afterAll(async () => {
    for (const s of sockets) s.destroy();
    await Promise.all([close(canary), close(canary6), close(tcpCanary)]);
    await lenientApi?.close();
    await Promise.all([strict?.close(), lenient?.close()]);
  });

  describe('POST /user/network refuses every way of naming an inside address (400 naming base_url, nothing stored, canary silent)', () => {
    const cases = (): string[] => [
      // The canary itself, by every spelling of loopback.
      `http://127.0.0.1:${port}/`,
      `http://127.0.0.1:${tcpPort}/`,
      `http://localhost:${port}/`,
      `http://localhost.:${port}/`,
      `http://LOCALHOST:${port}/`,
      `http://[::1]:${port}/`,
      `http://[::ffff:127.0.0.1]:${port}/`,
      `http://[::ffff:7f00:1]:${port}/`,
      // IPv6 forms that carry an IPv4 address: IPv4-compatible, NAT64 (well-known and local-use), 6to4.
      `http://[::127.0.0.1]:${port}/`,
      `http://[64:ff9b::127.0.0.1]:${port}/`,
      `http://[64:ff9b:1::7f00:1]:${port}/`,
      `http://[2002:7f00:1::]:${port}/`,
      'http://[64:ff9b::a9fe:a9fe]/',
      'http://[fec0::1]/',
      `http://2130706433:${port}/`,
      `http://0x7f000001:${port}/`,
      `http://0x7f.0.0.1:${port}/`,
      `http://0177.0.0.1:${port}/`,
      `http://017700000001:${port}/`,
      `http://127.1:${port}/`,
      `http://127.0.1:${port}/`,
      `http://0.0.0.0:${port}/`,
      `http://0:${port}/`,
      `http://[::]:${port}/`,
      `https://127.0.0.1:${port}/`,
      // Credentials in the URL, including the userinfo trick that makes a public name look like the host.
      `http://8.8.4.4@127.0.0.1:${port}/`,
      'https://user:pass@8.8.4.4/',
      // Link-local (cloud metadata), private ranges, CGNAT, unique-local and link-local IPv6.
      'http://169.254.169.254/latest/meta-data/',
      'http://[fe80::1]/',
      'http://[fe80::a9fe:a9fe]/',
      'http://10.0.0.1/',
      'http://10.255.255.254/',
      'http://172.16.0.1/',
      'http://172.31.255.254/',
      'http://192.168.0.1/',
      'http://192.168.255.254/',
      'http://100.64.0.1/',
      'http://100.127.255.254/',
      'http://[fc00::1]/',
      'http://[fd12:3456::1]/',
      'http://[::ffff:169.254.169.254]/',
      'http://[::ffff:10.0.0.1]/',
      // Names that resolve inside: from /etc/hosts.
      ...hostsFileNames().map((name) => `http://${name}:${port}/`),
      // Not http(s).
      'file:///etc/passwd',
      `ftp://127.0.0.1:${port}/`,
      'ftp://8.8.4.4/',
      `gopher://127.0.0.1:${tcpPort}/_PING`,
      'data:text/plain,hello',
      'javascript:alert(1)',
      'ws://8.8.4.4/',
      // A name that does not resolve at all.
      'http://no-such-host.invalid/',
    ];

    it('covers the names of /etc/hosts that resolve inside', () => {
      expect(hostsFileNames()).toContain('localhost');
    });

    it('refuses each case for both adapters', async () => {
      const refused: string[] = [];
      const before = await networks(strict, alice);
      for (const url of cases()) {
        for (const adapter of ['chirpstack', 'ttn']) {
          const res = await as(strict, alice).post('/user/network', {
            name: 'inside',
            adapter,
            base_url: url,
            api_key: KEY,
            application_id: 'app',
            webhook_id: 'dts',
          });
          expectError(res, 400, 'VALIDATION_FAILED', 'base_url');
          expect(res.body.errors).toHaveLength(1);
        }
        refused.push(url);
      }
      expect(refused).toHaveLength(cases().length);
      expect(await networks(strict, alice)).toEqual(before);
      // Real time by nature: nothing may connect to the canary, not even after the 400 was sent.
      await pause(200);
      expect(hits).toEqual([]);
      process.stdout.write(`ssrf: ${refused.length} base URLs refused at configuration, each for both adapters\n`);
    });
  });

  describe('checked again when a command is handed over', () => {
    it.each([
      ['127.0.0.1', (p: number) => `http://127.0.0.1:${p}`],
      ['localhost', (p: number) => `http://localhost:${p}`],
      ['IPv4-mapped IPv6', (p: number) => `http://[::ffff:127.0.0.1]:${p}`],
      ['decimal', (p: number) => `http://2130706433:${p}`],
    ])(
      'a network stored while private addresses were allowed (%s) fails the command with a reason; the canary is not called',
      async (_name, url) => {
        // Stored through an instance that allowed private addresses then; this instance does not.
        const network = expectSuccess<{ uid: number }>(
          await as(lenientApi, alice).post('/user/network', { name: 'stored inside', adapter: 'chirpstack', base_url: url(port), api_key: KEY }),
          201,
        );
        const command = await dispatch(strict, alice, network.uid);
        expect(command).toMatchObject({ status: 'Failed', reason: expect.stringMatching(/base_url.*(loopback|private)/) });
        expect(hits).toEqual([]);
      },
      40_000,
    );
  });

  describe('with OUTBOUND_ALLOW_PRIVATE=true', () => {
    it('positive control: a network at the canary is accepted and the canary is called with the downlink', async () => {
      const network = expectSuccess<{ uid: number }>(
        await as(lenient, carl).post('/user/network', { name: 'canary', adapter: 'chirpstack', base_url: `http://127.0.0.1:${port}`, api_key: KEY }),
        201,
      );
      const command = await dispatch(lenient, carl, network.uid);
      expect(command.status).toBe('Scheduled');
      expect(hits).toEqual([expect.stringMatching(/^http POST \/api\/devices\/[0-9a-f]{16}\/queue$/)]);
      hits.length = 0;
    }, 40_000);

    it.each([301, 302, 307, 308])(
      'a %i from an allowed first hop is not followed: the command fails, the redirect target is never connected',
      async (status) => {
        const network = expectSuccess<{ uid: number }>(
          await as(lenient, carl).post('/user/network', {
            name: `redirect ${status}`,
            adapter: 'chirpstack',
            base_url: `http://127.0.0.1:${port}/r${status}`,
            api_key: KEY,
          }),
          201,
        );
        const command = await dispatch(lenient, carl, network.uid);
        expect(command).toMatchObject({ status: 'Failed', reason: expect.stringContaining('redirects are not followed') });
        // The first hop only; nothing on the TCP canary the Location named.
        expect(hits).toEqual([expect.stringMatching(new RegExp(`^http POST /r${status}/api/devices/`))]);
        hits.length = 0;
      },
      40_000,
    );

    it('still refuses what is not http(s) or carries credentials', async () => {
      const before = await networks(lenient, carl);
      for (const url of [
        'file:///etc/passwd',
        `gopher://127.0.0.1:${tcpPort}/_x`,
        'data:text/plain,x',
        'javascript:alert(1)',
        `http://user:pw@127.0.0.1:${port}/`,
      ]) {
        expectError(
          await as(lenient, carl).post('/user/network', { name: 'x', adapter: 'chirpstack', base_url: url, api_key: KEY }),
          400,
          'VALIDATION_FAILED',
          'base_url',
        );
      }
      expect(await networks(lenient, carl)).toEqual(before);
      expect(hits).toEqual([]);
    });
  });
});
