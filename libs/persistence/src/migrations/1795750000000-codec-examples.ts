import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An account codec keeps its own test cases: the `examples` of the device-repository codec YAML it
 * was imported from, each with its result for the stored script (docs/api.md §13), and when the
 * codec last changed (a script can now be edited).
 */
export class CodecExamples1795750000000 implements MigrationInterface {
  name = 'CodecExamples1795750000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE decoders ADD COLUMN examples jsonb NOT NULL DEFAULT '[]'::jsonb, ADD COLUMN updated_at timestamptz NOT NULL DEFAULT now()`);
    await q.query(`UPDATE decoders SET updated_at = created_at`);
    // The devices of a codec, found when its script changes (their history is decoded again).
    await q.query(`CREATE INDEX devices_decoder_ref_idx ON devices (decoder_ref) WHERE deleted_at IS NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX devices_decoder_ref_idx`);
    await q.query(`ALTER TABLE decoders DROP COLUMN examples, DROP COLUMN updated_at`);
  }
}
