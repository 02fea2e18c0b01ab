import { eventually } from '@dts/platform';
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { accountWithCredentials, tokenClient } from './support/accounts';
import { startTestService, type TestService } from './support/harness';
import { startPrivatePostgres, type PrivatePostgres } from './support/services';
import { realDatabaseUrl } from './support/test-database';

/*
 * Reads that may be a moment stale go to a streaming replica (READ_DATABASE_URL, docs/api.md
 * "Reads and their staleness"), everything else to the primary; a replica that stops answering
 * leaves reads on the primary at once. A real primary and a real hot standby made here with
 * pg_basebackup -R. Only in the PostgreSQL pass: the embedded database has no replica.
 */
const suite = realDatabaseUrl ? describe : describe.skip;
const HOUR = 3_600;

suite('a read replica', () => {
  let primary: PrivatePostgres;
  let replica: PrivatePostgres;
  let svc: TestService;
  let api: ReturnType<typeof tokenClient>;
  let standby: Client;
  const eui = randomBytes(8).toString('hex').toUpperCase();
  const t0 = Math.floor(Date.now() / 1000 / HOUR) * HOUR - 48 * HOUR;
  let fcnt = 0;

  const ingest = (n: number, from: number) =>
    api
      .post(
        '/ingest/rest',
        Array.from({ length: n }, (_, i) => ({ devEUI: eui, port: 1, payload_hex: '016700E5', time_stamp_unix: from + i * 60, fcnt: fcnt++ })),
      )
      .expect(202);
  const countOn = async (server: PrivatePostgres): Promise<number> => {
    const c = new Client({ connectionString: server.url });
    await c.connect();
    try {
      const r = await c.query<{ n: number }>('SELECT count(*)::int AS n FROM uplinks u JOIN devices d ON d.uid = u.device_id WHERE d.eui = $1', [eui]);
      return r.rows[0]?.n ?? 0;
    } finally {
      await c.end();
    }
  };
  const stored = async () => ((await api.get(`/user/device/data/${eui}`).expect(200)).body.data as unknown[]).length;

  beforeAll(async () => {
    primary = await startPrivatePostgres();
    replica = await primary.startReplica();
    svc = await startTestService({ env: { DATABASE_URL: primary.url, READ_DATABASE_URL: replica.url } });
    const alice = await accountWithCredentials(svc, 'replica');
    api = tokenClient(svc, alice.appToken);
    await api.post(`/user/device/${eui}`, { decoder_ref: 2 }).expect(201);
    standby = new Client({ connectionString: replica.url });
    await standby.connect();
  }, 120_000);
  afterAll(async () => {
    await standby?.end().catch(() => undefined);
    await svc?.close();
    replica?.destroy();
    primary?.destroy();
  });

  it('serves history and series from the replica, a moment behind the primary', async () => {
    await ingest(100, t0);
    await eventually(async () => expect(await stored()).toBe(100), { what: 'the 100 uplinks to be read from the replica' });
    // Replay paused on the standby: what is written now reaches the primary only, and the reads
    // that go to the replica do not see it. Writes are never sent there (ingestion succeeds).
    await standby.query('SELECT pg_wal_replay_pause()');
    await ingest(10, t0 + 6_000);
    expect(await countOn(primary)).toBe(110);
    expect(await stored()).toBe(100);
    const series = (await api.get(`/user/device/series/${eui}?members=temperature&from=${t0}&to=${t0 + 2 * HOUR}&interval=1h&agg=count`).expect(200)).body.data;
    expect(series.members.temperature.count.reduce((a: number, b: number) => a + b, 0)).toBe(100);
    await standby.query('SELECT pg_wal_replay_resume()');
    await eventually(async () => expect(await stored()).toBe(110), { what: 'the 10 later uplinks to be replayed on the replica' });
  });

  it('reads from the primary within a second or two when the replica stops', async () => {
    await standby.end();
    replica.stop('immediate');
    await ingest(5, t0 + 12_000);
    const started = Date.now();
    // The first read meets the stopped replica (refused connection) and is answered by the primary.
    expect(await stored()).toBe(115);
    expect(Date.now() - started).toBeLessThan(3_000);
    const next = Date.now();
    expect(await stored()).toBe(115);
    expect(Date.now() - next).toBeLessThan(1_000);
  });
});
