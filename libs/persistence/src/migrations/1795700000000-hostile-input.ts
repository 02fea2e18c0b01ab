import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * - `images.completed`: an upload is invisible until its bytes are stored (rows that were there
 *   before are complete); the `image.reap` job removes rows that never completed.
 * - `device_handovers`: a device is handed over by an offer its receiving account accepts or
 *   declines; one open offer per device (a new one replaces it).
 * - `devices.link_generation`: part of every signed image link of the device; a hand-over moves it
 *   on, so the old owner's links stop working.
 */
export class HostileInput1795700000000 implements MigrationInterface {
  name = 'HostileInput1795700000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE images ADD COLUMN completed boolean NOT NULL DEFAULT true`);
    await q.query(`ALTER TABLE images ALTER COLUMN completed SET DEFAULT false`);
    await q.query(`CREATE INDEX images_incomplete ON images (ts_sync) WHERE NOT completed AND deleted = 0`);
    await q.query(`ALTER TABLE devices ADD COLUMN link_generation integer NOT NULL DEFAULT 0`);
    await q.query(`
      CREATE TABLE device_handovers (
        uid          serial PRIMARY KEY,
        device_id    integer NOT NULL UNIQUE REFERENCES devices(uid) ON DELETE CASCADE,
        from_account integer NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        to_account   integer NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        created_at   timestamptz NOT NULL DEFAULT now(),
        CHECK (from_account <> to_account)
      )`);
    await q.query(`CREATE INDEX device_handovers_to ON device_handovers (to_account)`);
    await q.query(`CREATE INDEX device_handovers_from ON device_handovers (from_account)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE device_handovers');
    await q.query('ALTER TABLE devices DROP COLUMN link_generation');
    await q.query('DROP INDEX images_incomplete');
    await q.query('ALTER TABLE images DROP COLUMN completed');
  }
}
