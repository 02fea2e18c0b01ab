import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What a classifier said of the whole image, apart from its boxes (SpeciesNet's ensemble or
 * classifier-only output): `{label, score, taxonomy, source}`, or null when none was sent.
 */
export class ImagePredictions1795610000000 implements MigrationInterface {
  name = 'ImagePredictions1795610000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE images ADD COLUMN prediction jsonb`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE images DROP COLUMN prediction`);
  }
}
