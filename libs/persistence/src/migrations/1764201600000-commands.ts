import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Downlink commands, and what an account's own network needs to take them: its API address and
 * key (encrypted like API tokens) and, for The Things Stack, application and webhook ids.
 */
export class Commands1764201600000 implements MigrationInterface {
  name = 'Commands1764201600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE networks ADD COLUMN base_url text, ADD COLUMN api_key_encrypted bytea, ADD COLUMN application_id text, ADD COLUMN webhook_id text`,
    );
    await q.query(`ALTER TABLE devices DROP CONSTRAINT devices_network_ref_fkey`);
    await q.query(`ALTER TABLE devices ADD CONSTRAINT devices_network_ref_fkey FOREIGN KEY (network_ref) REFERENCES networks(uid) ON DELETE SET NULL`);
    await q.query(`ALTER TABLE uplinks DROP CONSTRAINT uplinks_network_ref_fkey`);
    await q.query(`ALTER TABLE uplinks ADD CONSTRAINT uplinks_network_ref_fkey FOREIGN KEY (network_ref) REFERENCES networks(uid) ON DELETE SET NULL`);
    await q.query(`
      CREATE TABLE commands (
        uid         serial PRIMARY KEY,
        device_id   integer NOT NULL REFERENCES devices(uid) ON DELETE CASCADE,
        created_by  integer REFERENCES accounts(id) ON DELETE SET NULL,
        created_at  timestamptz NOT NULL DEFAULT now(),
        updated_at  timestamptz NOT NULL DEFAULT now(),
        status      text NOT NULL CHECK (status IN ('Created', 'Scheduled', 'Sent', 'Acknowledged', 'Failed', 'Cancelled')),
        network_ref integer REFERENCES networks(uid) ON DELETE SET NULL,
        confirmed   boolean NOT NULL DEFAULT false,
        port        smallint NOT NULL CHECK (port BETWEEN 1 AND 223),
        payload     bytea NOT NULL,
        name        text,
        params      jsonb,
        network_id  text,
        reason      text
      )`);
    await q.query(`CREATE INDEX commands_device_idx ON commands (device_id, created_at DESC, uid DESC)`);
    await q.query(`CREATE INDEX commands_created_idx ON commands (created_at) WHERE status = 'Created'`);
    await q.query(`CREATE INDEX commands_network_id_idx ON commands (network_id) WHERE network_id IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS commands`);
    await q.query(`ALTER TABLE networks DROP COLUMN base_url, DROP COLUMN api_key_encrypted, DROP COLUMN application_id, DROP COLUMN webhook_id`);
  }
}
