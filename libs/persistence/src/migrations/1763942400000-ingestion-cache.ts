import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What ingestion stores beyond the first uplink table (device time, the token that delivered, the
 * network's simulation flag), and the per-device data cache: its version (moved on by every
 * invalidation) and, when no Redis is configured, its rendered chunks.
 */
export class IngestionCache1763942400000 implements MigrationInterface {
  name = 'IngestionCache1763942400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE uplinks ADD COLUMN ts_device timestamptz, ADD COLUMN api_ref integer, ADD COLUMN simulated boolean NOT NULL DEFAULT false`);
    await q.query(`
      CREATE TABLE data_cache (
        device_id     integer PRIMARY KEY REFERENCES devices(uid) ON DELETE CASCADE,
        version       integer NOT NULL DEFAULT 1,
        built_version integer,
        rows          integer NOT NULL DEFAULT 0,
        bytes         bigint NOT NULL DEFAULT 0,
        built_at      timestamptz
      )`);
    await q.query(`
      CREATE TABLE data_cache_chunks (
        device_id integer NOT NULL REFERENCES devices(uid) ON DELETE CASCADE,
        version   integer NOT NULL,
        chunk     integer NOT NULL,
        body      text NOT NULL,
        PRIMARY KEY (device_id, version, chunk)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE IF EXISTS data_cache_chunks');
    await q.query('DROP TABLE IF EXISTS data_cache');
    await q.query('ALTER TABLE uplinks DROP COLUMN IF EXISTS ts_device, DROP COLUMN IF EXISTS api_ref, DROP COLUMN IF EXISTS simulated');
  }
}
