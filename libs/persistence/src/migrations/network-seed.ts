import type { Network } from '@dts/domain';
import type { QueryRunner } from 'typeorm';

/**
 * What a network's migration runs (docs/architecture.md, "Adding a network"): its kind allowed in
 * `networks.adapter`, and its global row written from its registry entry (uid, name, kind and
 * `seed`). `kinds` is every kind the column takes from then on, written out in the migration: a
 * migration that has run must do the same again on a fresh database, whatever the registry holds
 * by then. The row is inserted, never updated: an operator's edit of it is kept.
 */
export async function seedNetwork(q: QueryRunner, network: Network, kinds: readonly string[]): Promise<void> {
  if (!kinds.includes(network.kind)) throw new Error(`the kinds must include ${network.kind}`);
  await allowNetworkKinds(q, kinds);
  const { seed } = network;
  await q.query(
    `INSERT INTO networks (uid, name, description, interface, type_ref, lorawan_net_id, adapter) VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (uid) DO NOTHING`,
    [network.uid, network.name, seed.description, seed.interface, seed.typeRef, seed.lorawanNetId, network.kind],
  );
}

/** The way back: the network's rows go (its global one and accounts' own), and `kinds` are the ones the column took before. */
export async function unseedNetwork(q: QueryRunner, network: Network, kinds: readonly string[]): Promise<void> {
  await q.query('DELETE FROM networks WHERE adapter = $1', [network.kind]);
  await allowNetworkKinds(q, kinds);
}

async function allowNetworkKinds(q: QueryRunner, kinds: readonly string[]): Promise<void> {
  const list = kinds.map((k) => {
    if (!/^[a-z0-9-]+$/.test(k)) throw new Error(`a network kind is lowercase letters, digits and dashes: ${k}`);
    return `'${k}'`;
  });
  await q.query('ALTER TABLE networks DROP CONSTRAINT IF EXISTS networks_adapter_check');
  await q.query(`ALTER TABLE networks ADD CONSTRAINT networks_adapter_check CHECK (adapter IN (${list.join(', ')}))`);
}
