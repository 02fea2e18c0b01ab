import { eventually } from '@dts/platform';
import { createServer, connect, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { accountWithCredentials, bearer } from './support/accounts';
import { expectError, expectSuccess } from './support/envelope';
import { startTestService, TEST_SECRETS, type TestService } from './support/harness';
import { createTestDatabase, realDatabaseUrl, type TestDatabase } from './support/test-database';

/**
 * A TCP hop between the service and PostgreSQL that the test can cut and restore: the database
 * "goes away" for the service exactly as it does when the server stops or the network drops
 * (refused connections, open ones reset), without touching the PostgreSQL other suites share.
 */
class CuttableProxy {
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  port = 0;

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  async open(): Promise<void> {
    if (this.server) return;
    const server = createServer((client) => {
      const upstream = connect(this.targetPort, this.targetHost);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => undefined);
      }
      client.pipe(upstream).pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    await new Promise<void>((resolve, reject) => server.once('error', reject).listen(this.port, '127.0.0.1', resolve));
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
  }

  async cut(): Promise<void> {
    const server = this.server;
    this.server = null;
    for (const s of this.sockets) s.destroy();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

const describeOnRealDatabase = realDatabaseUrl ? describe : describe.skip;

describeOnRealDatabase('a database outage (real PostgreSQL only: the embedded one lives in the process)', () => {
  let db: TestDatabase;
  let proxy: CuttableProxy;
  let svc: TestService;
  let alice: Awaited<ReturnType<typeof accountWithCredentials>>;
  const eui = '70B3D57ED00A0001';

  beforeAll(async () => {
    db = await createTestDatabase();
    const target = new URL(db.url!);
    proxy = new CuttableProxy(target.hostname, Number(target.port || 5432));
    await proxy.open();
    const viaProxy = new URL(db.url!);
    viaProxy.hostname = '127.0.0.1';
    viaProxy.port = String(proxy.port);
    svc = await startTestService({ env: { DATABASE_URL: viaProxy.toString() } });
    alice = await accountWithCredentials(svc, 'outage');
    expectSuccess(
      await svc
        .http()
        .post(`/user/device/${eui}`)
        .set(...bearer(alice.appToken))
        .send({}),
      201,
    );
  });
  afterAll(async () => {
    await proxy?.open();
    await svc?.close();
    await proxy?.cut();
    await db?.drop();
  });

  const ingest = (fcnt: number) =>
    svc
      .http()
      .post('/ingest/rest')
      .set('X-Ingest-Secret', TEST_SECRETS.INGEST_SECRET)
      .send({ devEUI: eui, payload_hex: `01670${fcnt}0A`, port: 1, fcnt });

  it('answers 503 UNAVAILABLE envelopes while it is down, accepts nothing, and recovers without a restart', async () => {
    expect(expectSuccess<{ accepted: number }>(await ingest(1), 202).accepted).toBe(1);

    await proxy.cut();
    const ready = await svc.http().get('/health/ready');
    expectError(ready, 503, 'UNAVAILABLE', 'database');
    expect(Number(ready.headers['retry-after'])).toBeGreaterThan(0);
    expectSuccess(await svc.http().get('/health/live'));
    const read = await svc
      .http()
      .get('/user/device')
      .set(...bearer(alice.appToken));
    expectError(read, 503, 'UNAVAILABLE');
    expect(JSON.stringify(read.body)).not.toMatch(/ECONNREFUSED|127\.0\.0\.1|postgres/i);
    expectError(await ingest(2), 503, 'UNAVAILABLE');

    await proxy.open();
    // The pool opens fresh connections on demand: the first requests after the return succeed.
    await waitForReady(svc);
    expect(expectSuccess<{ accepted: number }>(await ingest(3), 202).accepted).toBe(1);
    const rows = expectSuccess<Array<{ payload_hex: string }>>(
      await svc
        .http()
        .get(`/user/device/table/${eui}`)
        .set(...bearer(alice.appToken)),
    );
    // The uplink refused with 503 is not there; the ones answered 202 are, once each.
    expect(rows.map((r) => r.payload_hex.toUpperCase())).toEqual(['0167010A', '0167030A']);
  });
});

function waitForReady(svc: TestService): Promise<void> {
  return eventually(async () => expect((await svc.http().get('/health/ready')).status).toBe(200), { what: 'the service to be ready again', intervalMs: 100 });
}
