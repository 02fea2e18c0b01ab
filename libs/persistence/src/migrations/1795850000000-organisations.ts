import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Organisations (docs/api.md §20, docs/architecture.md "Organisations"). An organisation is an
 * account of kind 'organisation': it owns devices, codecs, networks, fences, rules, integrations,
 * images and keys through the same `account_id`/`owner_id` columns a person's account does, has
 * its own plan (`max_devices`, `expires_on`) and shares the username namespace, as organisations
 * and users do in The Things Stack. It cannot sign in: no password, no address of its own (its
 * `email_key` is '#' and its name, which no address or username can be).
 *
 * - `organisation_members`: who acts in it and as what. A person's own account needs no row: it is
 *   its own owner.
 * - `organisation_invitations`: an offer to a verified address, taken up by whoever verified it.
 * - `api_tokens.created_by`: the person who made a key of an organisation; the key acts with that
 *   person's role and stops when the person leaves (null: the account's own key).
 * - `api_tokens.rights`: what a key may do (KEY_RIGHTS); null: all its type allows.
 * - `audit_events.organisation_id`: the organisation a recorded call acted in.
 */
export class Organisations1795850000000 implements MigrationInterface {
  name = 'Organisations1795850000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE accounts ADD COLUMN kind text NOT NULL DEFAULT 'person' CHECK (kind IN ('person', 'organisation'))`);
    await q.query(`
      CREATE TABLE organisation_members (
        organisation_id integer NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        account_id      integer NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        role            text NOT NULL CHECK (role IN ('owner', 'admin', 'operator', 'viewer')),
        created_at      timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (organisation_id, account_id)
      )`);
    // "The organisations I belong to", on every session request that names one.
    await q.query(`CREATE INDEX organisation_members_account_idx ON organisation_members (account_id)`);
    await q.query(`
      CREATE TABLE organisation_invitations (
        uid             serial PRIMARY KEY,
        organisation_id integer NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        email_key       text NOT NULL,
        role            text NOT NULL CHECK (role IN ('owner', 'admin', 'operator', 'viewer')),
        invited_by      integer REFERENCES accounts(id) ON DELETE SET NULL,
        created_at      timestamptz NOT NULL DEFAULT now(),
        expires_at      timestamptz NOT NULL,
        UNIQUE (organisation_id, email_key)
      )`);
    await q.query(`CREATE INDEX organisation_invitations_email_idx ON organisation_invitations (email_key)`);
    await q.query(`ALTER TABLE api_tokens ADD COLUMN created_by integer REFERENCES accounts(id) ON DELETE CASCADE`);
    await q.query(`ALTER TABLE api_tokens ADD COLUMN rights text[]`);
    // Invitation mails count against an hourly limit per address, as verification mails do.
    await q.query(`ALTER TABLE mail_counts DROP CONSTRAINT mail_counts_scope_check`);
    await q.query(
      `ALTER TABLE mail_counts ADD CONSTRAINT mail_counts_scope_check CHECK (scope IN ('alert-account', 'alert-recipient', 'verification', 'invitation'))`,
    );
    // The organisation a recorded call acted in: what its owners and admins read (GET /org/{uid}/audit).
    await q.query(`ALTER TABLE audit_events ADD COLUMN organisation_id integer`);
    await q.query(`CREATE INDEX audit_events_organisation_idx ON audit_events (organisation_id, at, id) WHERE organisation_id IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE audit_events DROP COLUMN organisation_id`);
    await q.query(`ALTER TABLE api_tokens DROP COLUMN rights`);
    await q.query(`ALTER TABLE api_tokens DROP COLUMN created_by`);
    await q.query(`DROP TABLE organisation_invitations`);
    await q.query(`DROP TABLE organisation_members`);
    await q.query(`DELETE FROM accounts WHERE kind = 'organisation'`);
    await q.query(`ALTER TABLE accounts DROP COLUMN kind`);
  }
}
