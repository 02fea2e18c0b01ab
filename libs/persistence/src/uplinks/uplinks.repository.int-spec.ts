import { DataSource } from 'typeorm';
import { dataSourceOptions, runMigrations } from '../data-source';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../embedded/embedded-postgres';
import { type PayloadKey, UplinksRepository } from './uplinks.repository';

describe('UplinksRepository.payloadBatch', () => {
  let db: EmbeddedPostgres;
  let ds: DataSource;
  let repo: UplinksRepository;
  let deviceUid: number;

  beforeAll(async () => {
    db = await startEmbeddedPostgres({ dataDir: null, maxConnections: 10 });
    await runMigrations({ url: db.url, poolSize: 1 });
    ds = await new DataSource(dataSourceOptions({ url: db.url, poolSize: 2 })).initialize();
    repo = new UplinksRepository(ds);
    const [account] = await ds.query(
      `INSERT INTO accounts (username, username_key, email, email_key, password_hash, expires_on, max_devices)
       VALUES ('batch', 'batch', 'batch@example.org', 'batch@example.org', 'x', '2999-01-01', 10) RETURNING id`,
    );
    const [device] = await ds.query(`INSERT INTO devices (eui, owner_id, label) VALUES ('00000000000000B1', $1, 'batch') RETURNING uid`, [account.id]);
    deviceUid = device.uid;
    // uids 5 … 14 cross a digit boundary, where text order ("10" < "5") and number order part; all
    // at one moment but for two at the same microsecond later, and one a microsecond before.
    await ds.query(
      `INSERT INTO uplinks (uid, device_id, received_at, port, payload)
       SELECT n, $1, timestamptz '2026-05-01 12:00:00.000001' + CASE WHEN n IN (6, 7) THEN interval '1 microsecond' WHEN n = 14 THEN interval '-1 microsecond' ELSE interval '0' END,
              1, '\\x01'::bytea FROM generate_series(5, 14) AS n`,
      [deviceUid],
    );
  });
  afterAll(async () => {
    await ds?.destroy();
    await db?.stop();
  });

  it('walks every uplink once, in time and number order, across a digit boundary and microseconds a Date would lose', async () => {
    const seen: string[] = [];
    let after: PayloadKey | null = null;
    for (;;) {
      const rows = await repo.payloadBatch(deviceUid, after, 3);
      const last = rows.at(-1);
      if (!last) break;
      seen.push(...rows.map((r) => r.uid));
      after = { at: last.at, uid: last.uid };
    }
    expect(seen).toEqual(['14', '5', '8', '9', '10', '11', '12', '13', '6', '7']);
  });
});
