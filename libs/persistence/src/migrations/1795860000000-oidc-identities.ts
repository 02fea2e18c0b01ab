import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Single sign-on (docs/api.md §3, "Single sign-on"): which account a provider's subject signs in
 * to. The link is made once, at the first sign-in (to the account with that verified address, or
 * a new one); after that the subject finds the account even if either address changes.
 */
export class OidcIdentities1795860000000 implements MigrationInterface {
  name = 'OidcIdentities1795860000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE oidc_identities (
        provider   text NOT NULL,
        subject    text NOT NULL,
        account_id integer NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        created_at timestamptz NOT NULL DEFAULT now(),
        last_used_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (provider, subject)
      )`);
    await q.query(`CREATE INDEX oidc_identities_account_idx ON oidc_identities (account_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE oidc_identities`);
  }
}
