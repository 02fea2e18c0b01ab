import { type Network, NETWORKS, REST } from '@dts/domain';
import { DataSource } from 'typeorm';
import { dataSourceOptions, runMigrations } from '../data-source';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../embedded/embedded-postgres';
import { seedNetwork, unseedNetwork } from './network-seed';

/** The registry's `seed` of each network is what the migrations wrote, and seedNetwork writes a new one from its entry. */
describe('network seed rows', () => {
  let db: EmbeddedPostgres;
  let ds: DataSource;

  beforeAll(async () => {
    db = await startEmbeddedPostgres({ dataDir: null, maxConnections: 4 });
    await runMigrations({ url: db.url, poolSize: 1 });
    // Two connections: the spec reads on one while the other is held by a query runner.
    ds = await new DataSource(dataSourceOptions({ url: db.url, poolSize: 2 })).initialize();
  });
  afterAll(async () => {
    await ds?.destroy();
    await db?.stop();
  });

  const row = (n: Network) => ({
    uid: n.uid,
    name: n.name,
    adapter: n.kind,
    description: n.seed.description,
    interface: n.seed.interface,
    type_ref: n.seed.typeRef,
    lorawan_net_id: n.seed.lorawanNetId,
  });
  const globalRows = () =>
    ds.query('SELECT uid, name, adapter, description, interface, type_ref, lorawan_net_id FROM networks WHERE account_id IS NULL ORDER BY uid');

  it('finds every global row as its registry entry describes it', async () => {
    expect(await globalRows()).toEqual([...NETWORKS].sort((a, b) => a.uid - b.uid).map(row));
  });

  it('adds a network from its entry, keeps an existing row, and takes it back out', async () => {
    const kinds = NETWORKS.map((n) => n.kind);
    const added: Network = { ...REST, kind: 'acme', uid: 6, name: 'Acme', seed: { ...REST.seed, description: 'Acme uplinks.' } };
    const q = ds.createQueryRunner();
    try {
      await seedNetwork(q, added, [...kinds, 'acme']);
      await seedNetwork(q, { ...added, name: 'Renamed' }, [...kinds, 'acme']);
      expect(await globalRows()).toEqual([...NETWORKS, added].sort((a, b) => a.uid - b.uid).map(row));
      await unseedNetwork(q, added, kinds);
      await expect(q.query(`INSERT INTO networks (name, type_ref, adapter) VALUES ('x', 1, 'acme')`)).rejects.toThrow(/networks_adapter_check/);
      expect(await globalRows()).toEqual([...NETWORKS].sort((a, b) => a.uid - b.uid).map(row));
      await expect(seedNetwork(q, added, kinds)).rejects.toThrow(/must include acme/);
    } finally {
      await q.release();
    }
  });
});
