import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * E-mail verification (docs/api.md §3): nothing but the verification and password-reset mails goes
 * to an address until its owner confirmed it.
 *
 * `email_verified_at` says when the account's address was confirmed (null: not yet);
 * `email_pending` is an address the account asked to change to, which replaces `email` only once
 * verified. `email_verifications` holds single-use tokens as their SHA-256 digests, like reset
 * tokens, each for the address it was mailed to; an account has one live token.
 *
 * Accounts that exist when this runs are taken as verified: they were admitted under the old rules
 * and their alert mail is in use, so an upgrade must not silently stop it until each owner comes
 * back to click a link. The hourly limits of alert mail (the next migration) bound what any of
 * them, however it was registered, can send; an operator who doubts an address can set
 * `email_verified_at` to null (docs/api.md §3, "Existing accounts").
 */
export class EmailVerification1795820000000 implements MigrationInterface {
  name = 'EmailVerification1795820000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE accounts ADD COLUMN email_verified_at timestamptz`);
    await q.query(`ALTER TABLE accounts ADD COLUMN email_pending text`);
    await q.query(`UPDATE accounts SET email_verified_at = now()`);
    await q.query(`
      CREATE TABLE email_verifications (
        digest     bytea PRIMARY KEY,
        account_id integer NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        email      text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL,
        used_at    timestamptz
      )`);
    await q.query(`CREATE INDEX email_verifications_account_idx ON email_verifications (account_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE email_verifications`);
    await q.query(`ALTER TABLE accounts DROP COLUMN email_pending`);
    await q.query(`ALTER TABLE accounts DROP COLUMN email_verified_at`);
  }
}
