import { DataSource } from 'typeorm';
import { dataSourceOptions, runMigrations } from '../data-source';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../embedded/embedded-postgres';
import { UplinksRepository } from './uplinks.repository';

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
    // uids 5 … 14 cross a digit boundary, where text order ("10" < "5") and number order part.
    await ds.query(
      `INSERT INTO uplinks (uid, device_id, received_at, port, payload)
       SELECT n, $1, now(), 1, '\\x01'::bytea FROM generate_series(5, 14) AS n`,
      [deviceUid],
    );
  });
  afterAll(async () => {
    await ds?.destroy();
    await db?.stop();
  });

  it('walks every uplink once, in number order, across a digit boundary', async () => {
    const seen: string[] = [];
    let after = '0';
    for (;;) {
      const rows = await repo.payloadBatch(deviceUid, after, 3);
      if (rows.length === 0) break;
      seen.push(...rows.map((r) => r.uid));
      after = rows[rows.length - 1]!.uid;
    }
    expect(seen).toEqual(['5', '6', '7', '8', '9', '10', '11', '12', '13', '14']);
  });
});
