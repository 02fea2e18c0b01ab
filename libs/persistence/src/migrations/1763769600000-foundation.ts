import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Accounts, API tokens, sessions, password resets, shared rate-limit buckets and feedback. */
export class Foundation1763769600000 implements MigrationInterface {
  name = 'Foundation1763769600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE accounts (
        id            serial PRIMARY KEY,
        username      text NOT NULL,
        username_key  text NOT NULL UNIQUE,
        email         text NOT NULL,
        email_key     text NOT NULL UNIQUE,
        fullname      text NOT NULL DEFAULT '',
        password_hash text NOT NULL,
        consent       smallint NOT NULL DEFAULT 0 CHECK (consent IN (0, 1)),
        active        smallint NOT NULL DEFAULT 1 CHECK (active IN (0, 1)),
        groupid       integer NOT NULL DEFAULT 2,
        created_at    timestamptz NOT NULL DEFAULT now(),
        last_login_at timestamptz,
        subscription  text NOT NULL DEFAULT 'free',
        expires_on    date NOT NULL,
        max_devices   integer NOT NULL CHECK (max_devices >= 0),
        login_count   integer NOT NULL DEFAULT 0
      )`);
    await q.query(`
      CREATE TABLE api_tokens (
        uid             serial PRIMARY KEY,
        account_id      integer NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        digest          bytea NOT NULL UNIQUE,
        value_encrypted bytea NOT NULL,
        type            text NOT NULL CHECK (type IN ('app', 'master')),
        name            text,
        meta            jsonb,
        enabled         smallint NOT NULL DEFAULT 1 CHECK (enabled IN (0, 1)),
        created_at      timestamptz NOT NULL DEFAULT now(),
        until           timestamptz
      )`);
    await q.query(`CREATE INDEX api_tokens_account_idx ON api_tokens (account_id)`);
    await q.query(`
      CREATE TABLE sessions (
        digest       bytea PRIMARY KEY,
        account_id   integer NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        created_at   timestamptz NOT NULL DEFAULT now(),
        last_seen_at timestamptz NOT NULL DEFAULT now(),
        expires_at   timestamptz NOT NULL
      )`);
    await q.query(`CREATE INDEX sessions_account_idx ON sessions (account_id)`);
    await q.query(`CREATE INDEX sessions_expires_idx ON sessions (expires_at)`);
    await q.query(`
      CREATE TABLE password_resets (
        digest     bytea PRIMARY KEY,
        account_id integer NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL,
        used_at    timestamptz
      )`);
    await q.query(`CREATE INDEX password_resets_account_idx ON password_resets (account_id)`);
    // Fixed-window counters shared by every api instance when no Redis is configured.
    await q.query(`
      CREATE UNLOGGED TABLE rate_limits (
        key           text PRIMARY KEY,
        hits          integer NOT NULL,
        expires_at    timestamptz NOT NULL,
        blocked_until timestamptz
      )`);
    await q.query(`
      CREATE TABLE feedback (
        uid        serial PRIMARY KEY,
        account_id integer NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        message    text NOT NULL,
        category   text NOT NULL,
        email      text,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of ['feedback', 'rate_limits', 'password_resets', 'sessions', 'api_tokens', 'accounts']) {
      await q.query(`DROP TABLE IF EXISTS ${table}`);
    }
  }
}
