import { FAMILIES, NETWORKS } from '@dts/domain';
import { DataSource } from 'typeorm';
import { dataSourceOptions, runMigrations } from '../data-source';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../embedded/embedded-postgres';

/**
 * The code's registries and the rows the migrations seed name the same things: a network or a
 * device family added on one side only fails here (docs/architecture.md, the recipes).
 */
describe('seeded rows and the registries', () => {
  let db: EmbeddedPostgres;
  let ds: DataSource;

  beforeAll(async () => {
    db = await startEmbeddedPostgres({ dataDir: null, maxConnections: 4 });
    await runMigrations({ url: db.url, poolSize: 1 });
    ds = await new DataSource(dataSourceOptions({ url: db.url, poolSize: 1 })).initialize();
  });
  afterAll(async () => {
    await ds?.destroy();
    await db?.stop();
  });

  it('has a global networks row for each network, with its uid, name and kind', async () => {
    const rows: { uid: number; name: string; adapter: string }[] = await ds.query(
      'SELECT uid, name, adapter FROM networks WHERE account_id IS NULL ORDER BY uid',
    );
    expect(rows).toEqual(NETWORKS.map((n) => ({ uid: n.uid, name: n.name, adapter: n.kind })).sort((a, b) => a.uid - b.uid));
  });

  it('has a global decoders row for each device family, with its uid and name', async () => {
    const rows: { uid: number; name: string }[] = await ds.query('SELECT uid, name FROM decoders WHERE account_id IS NULL ORDER BY uid');
    expect(rows).toEqual(FAMILIES.map((f) => ({ uid: f.uid, name: f.name })).sort((a, b) => a.uid - b.uid));
  });
});
