import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Hourly limits of mail (docs/api.md §19, §3), held in the database so that every worker process
 * counts against the same numbers.
 *
 * `mail_counts`: mails sent per scope (`alert-account`: an account's alert mails, `alert-recipient`:
 * alert mails to one address, `verification`: verification mails to one address) and key per
 * clock hour (UTC). A decision locks its rows (an upsert), so two workers never both take the last
 * place.
 *
 * `alert_mails`: the decision on each mail of an alert (its raise, its clear): `sending` (counted,
 * being handed to the transport), `sent`, `held` (over a limit, waiting for its hour's digest),
 * `digested`, `skipped` (never sent, with the reason). `alerts.mail_raised/mail_cleared` stay the
 * "to decide" flags the offline check's sweep reads; a row here is what the alert shows.
 *
 * `alert_mail_digests`: one mail per recipient and hour folding what was held; `lease_until` keeps a
 * second worker from sending a digest another is sending, and lets it take over from one that died.
 */
export class MailLimits1795820000001 implements MigrationInterface {
  name = 'MailLimits1795820000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE mail_counts (
        scope        text NOT NULL CHECK (scope IN ('alert-account', 'alert-recipient', 'verification')),
        key          text NOT NULL,
        window_start timestamptz NOT NULL,
        sent         integer NOT NULL DEFAULT 0,
        PRIMARY KEY (scope, key, window_start)
      )`);
    await q.query(`CREATE INDEX mail_counts_window_idx ON mail_counts (window_start)`);
    await q.query(`
      CREATE TABLE alert_mail_digests (
        id           bigserial PRIMARY KEY,
        recipient    text NOT NULL,
        window_start timestamptz NOT NULL,
        created_at   timestamptz NOT NULL DEFAULT now(),
        lease_until  timestamptz NOT NULL,
        sent_at      timestamptz,
        alerts       integer
      )`);
    await q.query(`CREATE INDEX alert_mail_digests_unsent_idx ON alert_mail_digests (lease_until) WHERE sent_at IS NULL`);
    await q.query(`
      CREATE TABLE alert_mails (
        alert_id     bigint NOT NULL REFERENCES alerts(uid) ON DELETE CASCADE,
        action       text NOT NULL CHECK (action IN ('raised', 'cleared')),
        state        text NOT NULL CHECK (state IN ('sending', 'sent', 'held', 'digested', 'skipped')),
        reason       text,
        recipient    text,
        window_start timestamptz,
        digest_id    bigint REFERENCES alert_mail_digests(id) ON DELETE SET NULL,
        decided_at   timestamptz NOT NULL DEFAULT now(),
        sent_at      timestamptz,
        PRIMARY KEY (alert_id, action)
      )`);
    await q.query(`CREATE INDEX alert_mails_held_idx ON alert_mails (window_start, recipient) WHERE state = 'held' AND digest_id IS NULL`);
    await q.query(`CREATE INDEX alert_mails_digest_idx ON alert_mails (digest_id) WHERE digest_id IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE alert_mails`);
    await q.query(`DROP TABLE alert_mail_digests`);
    await q.query(`DROP TABLE mail_counts`);
  }
}
