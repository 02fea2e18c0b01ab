import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The device's link margin (dB) as its network last reported it (ChirpStack's `status` event,
 * docs/api.md §5), with the moment it describes, so that a late status never moves it backwards.
 */
export class DeviceLinkMargin1795770000000 implements MigrationInterface {
  name = 'DeviceLinkMargin1795770000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE devices ADD COLUMN margin_db double precision, ADD COLUMN margin_at timestamptz`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE devices DROP COLUMN margin_db, DROP COLUMN margin_at`);
  }
}
