import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Dashboards (docs/api.md §21): an account's arrangements of widgets. `created_by` is the person
 * who made it (a member, in an organisation): a private one (`shared_role` null) is theirs alone,
 * a shared one is seen by members of at least that role. The widgets are one JSON document, read
 * and written whole: nothing queries inside them, and the API checks them strictly on the way in.
 * A maker's account going leaves their shared dashboards to the organisation (`created_by` null).
 */
export class Dashboards1795870000000 implements MigrationInterface {
  name = 'Dashboards1795870000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE dashboards (
        uid         serial PRIMARY KEY,
        account_id  integer NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        created_by  integer REFERENCES accounts(id) ON DELETE SET NULL,
        name        text NOT NULL,
        widgets     jsonb NOT NULL DEFAULT '[]'::jsonb,
        shared_role text CHECK (shared_role IN ('viewer', 'operator', 'admin')),
        created_at  timestamptz NOT NULL DEFAULT now(),
        updated_at  timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX dashboards_account_idx ON dashboards (account_id)`);
    await q.query(`CREATE INDEX dashboards_created_by_idx ON dashboards (created_by)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE dashboards`);
  }
}
