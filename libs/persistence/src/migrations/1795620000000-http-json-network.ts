import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The HTTP JSON network (libs/domain networks/http-json): its global row (uid 5, read with the default
 * mapping), the kind among the adapters, and the mapping an account's own network of this kind keeps.
 */
export class HttpJsonNetwork1795620000000 implements MigrationInterface {
  name = 'HttpJsonNetwork1795620000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE networks DROP CONSTRAINT networks_adapter_check`);
    await q.query(`ALTER TABLE networks ADD CONSTRAINT networks_adapter_check CHECK (adapter IN ('simulated', 'ttn', 'chirpstack', 'rest', 'http-json'))`);
    await q.query(`ALTER TABLE networks ADD COLUMN ingest_mapping jsonb`);
    await q.query(`
      INSERT INTO networks (uid, name, description, interface, type_ref, lorawan_net_id, adapter) VALUES
        (5, 'HTTP JSON', 'Any server posting JSON uplinks to POST /ingest/http/{uid}: the global network reads {devEUI, port, payload (hex)}; an account network maps its own members.', 'REST', 7, NULL, 'http-json')`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM networks WHERE adapter = 'http-json'`);
    await q.query(`ALTER TABLE networks DROP COLUMN ingest_mapping`);
    await q.query(`ALTER TABLE networks DROP CONSTRAINT networks_adapter_check`);
    await q.query(`ALTER TABLE networks ADD CONSTRAINT networks_adapter_check CHECK (adapter IN ('simulated', 'ttn', 'chirpstack', 'rest'))`);
  }
}
