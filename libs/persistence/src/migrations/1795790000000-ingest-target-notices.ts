import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Every process that ingests keeps the devices it looked up (IngestTargetsCache): a committed change
 * to what a look-up reads — a device's owner, decoder, network, EUI or deletion, a decoder's name or
 * script — notifies channel `dts_ingest_targets`, and every listening process forgets what it kept.
 * In the database rather than in the code that makes the change, so that no way of making it (a
 * route added later, a statement by hand) can leave a process decoding with what it kept.
 * Statement-level, at commit (NOTIFY's own timing), and only for those columns: ingestion's own
 * updates of a device's metadata do not fire it.
 */
export class IngestTargetNotices1795790000000 implements MigrationInterface {
  name = 'IngestTargetNotices1795790000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE FUNCTION dts_ingest_targets_changed() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('dts_ingest_targets', TG_TABLE_NAME);
        RETURN NULL;
      END $$`);
    await q.query(`CREATE TRIGGER devices_ingest_target_changed AFTER UPDATE OF eui, owner_id, decoder_ref, network_ref, deleted_at OR DELETE ON devices
      FOR EACH STATEMENT EXECUTE FUNCTION dts_ingest_targets_changed()`);
    await q.query(`CREATE TRIGGER decoders_ingest_target_changed AFTER UPDATE OF name, script OR DELETE ON decoders
      FOR EACH STATEMENT EXECUTE FUNCTION dts_ingest_targets_changed()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TRIGGER decoders_ingest_target_changed ON decoders');
    await q.query('DROP TRIGGER devices_ingest_target_changed ON devices');
    await q.query('DROP FUNCTION dts_ingest_targets_changed()');
  }
}
