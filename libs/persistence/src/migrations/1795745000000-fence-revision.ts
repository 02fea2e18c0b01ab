import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Fences can be edited (PATCH /user/fence/{uid}): each edit moves `revision` on, so that a worker
 * holding a fence prepared for its alert rules knows to read the geometry again.
 */
export class FenceRevision1795745000000 implements MigrationInterface {
  name = 'FenceRevision1795745000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE fences ADD COLUMN revision integer NOT NULL DEFAULT 1`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE fences DROP COLUMN revision`);
  }
}
