import { type Downlink, PermanentDownlinkError } from '@dts/domain';
import { loadConfig, TokenCryptoService } from '@dts/platform';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type CommandNetworkRow, NetworkClient } from './network-client';

/**
 * The client against a real HTTP server answering as ChirpStack's device queue API does, on
 * loopback: the client may call it only where the configuration allows private addresses.
 */
describe('NetworkClient', () => {
  const config = loadConfig({
    INGEST_SECRET: 'network-client-ingest-secret',
    TOKEN_ENCRYPTION_KEY: 'ab'.repeat(32),
    SESSION_SECRET: 'n'.repeat(40),
    LOG_LEVEL: 'silent',
  });
  const crypto = new TokenCryptoService(config);
  const calls: { method: string; url: string; auth: string | undefined; body: unknown }[] = [];
  /** The network's queue: ChirpStack's list answer. */
  let queue: { id: string; fPort: number; data: string; confirmed: boolean; isPending: boolean }[] = [];
  let server: Server;
  let base: string;

  const body = async (req: IncomingMessage) => {
    let text = '';
    for await (const chunk of req) text += String(chunk);
    return text ? (JSON.parse(text) as unknown) : undefined;
  };

  beforeAll(async () => {
    let next = 100;
    server = createServer((req, res) => {
      void body(req).then((parsed) => {
        calls.push({ method: req.method ?? '', url: req.url ?? '', auth: req.headers.authorization, body: parsed });
        const json = (value: unknown) => res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(value));
        if (req.method === 'GET') return json({ totalCount: queue.length, result: queue });
        if (req.method === 'DELETE') return json(((queue = []), {}));
        const item = (parsed as { queueItem: { fPort: number; data: string; confirmed: boolean } }).queueItem;
        const id = `q-${next++}`;
        queue.push({ id, ...item, isPending: false });
        return json({ id });
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  beforeEach(() => {
    calls.length = 0;
    queue = [];
  });

  const row = (over: Partial<CommandNetworkRow> = {}): CommandNetworkRow => ({
    network: 'Our ChirpStack',
    adapter: 'chirpstack',
    base_url: base,
    api_key_encrypted: crypto.encrypt('secret-key'),
    application_id: null,
    webhook_id: null,
    ...over,
  });
  const downlink = (commandUid: number): Downlink => ({
    commandUid,
    eui: '70B3D57ED0001234',
    port: 10,
    confirmed: false,
    payload: Uint8Array.from([commandUid]),
  });
  const permissive = new NetworkClient(crypto, { outboundAllowPrivate: true, networkTimeoutMs: 10_000 });

  it('sends a downlink with the decrypted key and answers the network’s id of it', async () => {
    expect(await permissive.send(row(), downlink(1))).toBe('q-100');
    expect(calls).toEqual([
      {
        method: 'POST',
        url: '/api/devices/70b3d57ed0001234/queue',
        auth: 'Bearer secret-key',
        body: { queueItem: { confirmed: false, fPort: 10, data: 'AQ==' } },
      },
    ]);
  });

  it('takes downlinks back out of the network’s queue, and says what became of the others', async () => {
    const first = await permissive.send(row(), downlink(1));
    const second = await permissive.send(row(), downlink(2));
    calls.length = 0;
    const removal = await permissive.remove(row(), '70B3D57ED0001234', [first]);
    expect(removal).toMatchObject({ removed: [first], gone: [], refused: [], lost: [], renamed: [{ from: second, to: expect.any(String) }] });
    expect(calls.map((c) => c.method)).toEqual(['GET', 'DELETE', 'POST']);
    expect(queue.map((q) => q.data)).toEqual(['Ag==']);
  });

  it('checks the network’s address before any call: a refused one is a permanent failure and no call is made', async () => {
    const strict = new NetworkClient(crypto, { outboundAllowPrivate: false, networkTimeoutMs: 10_000 });
    await expect(strict.send(row(), downlink(1))).rejects.toThrow(PermanentDownlinkError);
    await expect(strict.remove(row(), '70B3D57ED0001234', ['q-1'])).rejects.toThrow(/base_url/);
    // What only the check refuses (the connection itself would go through): credentials in the URL.
    const withCredentials = row({ base_url: base.replace('http://', 'http://user:pw@') });
    await expect(permissive.send(withCredentials, downlink(1))).rejects.toThrow(/credentials/);
    await expect(permissive.remove(withCredentials, '70B3D57ED0001234', ['q-1'])).rejects.toThrow(/credentials/);
    expect(calls).toEqual([]);
  });

  it('refuses a network without an address and key, or without downlinks, before any call', async () => {
    await expect(permissive.send(row({ api_key_encrypted: null }), downlink(1))).rejects.toThrow(/no API address and key/);
    await expect(permissive.remove(row({ base_url: null }), '70B3D57ED0001234', ['q-1'])).rejects.toThrow(PermanentDownlinkError);
    await expect(permissive.send(row({ adapter: 'rest', network: 'Generic REST' }), downlink(1))).rejects.toThrow(/takes no downlinks/);
    await expect(permissive.send(row({ adapter: null }), downlink(1))).rejects.toThrow(/has no network/);
    await expect(permissive.remove(row({ adapter: 'simulated' }), '70B3D57ED0001234', ['sim:1'])).rejects.toThrow(PermanentDownlinkError);
    expect(await permissive.send(row({ adapter: 'simulated', base_url: null, api_key_encrypted: null }), downlink(7))).toBe('sim:7');
    expect(calls).toEqual([]);
  });
});
