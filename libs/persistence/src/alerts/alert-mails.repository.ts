import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DigestedAlertMail } from '@dts/domain';
import { DataSource, type EntityManager } from 'typeorm';
import { hourWindow, hourWindowEnd, type MailCounter, takeMailPlaces } from '../mail/mail-counts';
import type { AlertChange } from '../integrations/routing-batch';
import { returningRows } from '../sql/sql-results';

export type AlertMailAction = 'raised' | 'cleared';

/** The hourly limits of alert mail (configuration: ALERT_MAILS_PER_RECIPIENT_PER_HOUR, ALERT_MAILS_PER_ACCOUNT_PER_HOUR). */
export interface AlertMailLimits {
  perRecipientPerHour: number;
  perAccountPerHour: number;
}

/**
 * What to do with one mail of an alert: `send` it to `to` (its place under the limits is taken);
 * it was `held` for the hour's digest or `skipped`, recorded with the reason; or `none` (no mail
 * wanted, decided already, or the alert is gone).
 */
export type AlertMailDecision = { kind: 'send'; to: string } | { kind: 'held'; reason: string } | { kind: 'skipped'; reason: string } | { kind: 'none' };

/** A digest claimed for sending: its recipient and hour. */
export interface ClaimedDigest {
  id: string;
  recipient: string;
  windowStart: Date;
}

export const UNVERIFIED_REASON = 'the account’s e-mail address is not verified';

const hhmm = (d: Date) => d.toISOString().slice(11, 16);
const utcMinute = (d: Date) => d.toISOString().slice(0, 16).replace('T', ' ');

/** One mail of an alert: its raise or its clear. */
export interface AlertMailRef {
  alert_id: string;
  action: AlertMailAction;
}

export const alertMailKey = (m: AlertMailRef) => `${m.alert_id}:${m.action}`;

/**
 * Decides, in the caller's transaction, the mails given that are still to decide (their alert's
 * flag false, no decision recorded), in the order given, per account: skipped when the account's
 * address is not verified; else as many as the hour's places under both limits allow are to be
 * sent (`send`, recorded `sending`), the rest held for the hour's digest. Set-based, so that an
 * alert storm is decided in a few statements where it is raised (the router's and the offline
 * check's transactions) and only the mails that will go become jobs. Accounts are taken in id
 * order and each one's counters account-then-recipient, the lock order every decision keeps.
 * Answers the decision of each mail decided here, by alertMailKey.
 */
export async function decideAlertMails(
  tx: Pick<EntityManager, 'query'>,
  mails: readonly AlertMailRef[],
  limits: AlertMailLimits,
  now: Date,
): Promise<Map<string, AlertMailDecision>> {
  const decisions = new Map<string, AlertMailDecision>();
  if (mails.length === 0) return decisions;
  const rows = (await tx.query(
    `SELECT x.alert_id::text AS alert_id, x.action, a.account_id, ac.email, ac.email_key, ac.email_verified_at IS NOT NULL AS verified
     FROM unnest($1::bigint[], $2::text[]) WITH ORDINALITY AS x(alert_id, action, n)
     JOIN alerts a ON a.uid = x.alert_id
     -- An organisation has no address of its own: its alert mails go to its first owner (docs/api.md §20).
     JOIN accounts ac ON ac.id = coalesce(
       (SELECT m.account_id FROM organisation_members m WHERE m.organisation_id = a.account_id AND m.role = 'owner' ORDER BY m.created_at, m.account_id LIMIT 1),
       a.account_id)
     WHERE (CASE WHEN x.action = 'raised' THEN a.mail_raised ELSE a.mail_cleared END) = false
       AND NOT EXISTS (SELECT 1 FROM alert_mails m WHERE m.alert_id = x.alert_id AND m.action = x.action)
     ORDER BY a.account_id, x.n`,
    [mails.map((m) => m.alert_id), mails.map((m) => m.action)],
  )) as (AlertMailRef & { account_id: number; email: string; email_key: string; verified: boolean })[];
  const window = hourWindow(now);
  const records: { mail: AlertMailRef; state: 'sending' | 'held' | 'skipped'; reason: string | null; recipient: string; window: Date | null }[] = [];
  for (let i = 0; i < rows.length;) {
    const account = rows[i]!;
    let j = i;
    while (j < rows.length && rows[j]!.account_id === account.account_id) j++;
    const own = rows.slice(i, j);
    i = j;
    if (!account.verified) {
      for (const m of own) records.push({ mail: m, state: 'skipped', reason: UNVERIFIED_REASON, recipient: account.email, window: null });
      continue;
    }
    const counters: MailCounter[] = [
      { scope: 'alert-account', key: String(account.account_id), limit: limits.perAccountPerHour },
      { scope: 'alert-recipient', key: account.email_key, limit: limits.perRecipientPerHour },
    ];
    const { taken, full } = await takeMailPlaces(tx, counters, window, own.length);
    const over =
      full?.scope === 'alert-account'
        ? `over the account’s limit of ${full.limit} alert mails an hour`
        : `over the limit of ${full?.limit ?? 0} alert mails an hour to ${account.email}`;
    const heldReason = `${over}: in the digest mailed after ${hhmm(hourWindowEnd(now))} UTC`;
    own.forEach((m, k) =>
      records.push(
        k < taken
          ? { mail: m, state: 'sending', reason: null, recipient: account.email, window }
          : { mail: m, state: 'held', reason: heldReason, recipient: account.email, window },
      ),
    );
  }
  if (records.length === 0) return decisions;
  await tx.query(
    `INSERT INTO alert_mails (alert_id, action, state, reason, recipient, window_start)
     SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::text[], $6::timestamptz[])`,
    [
      records.map((r) => r.mail.alert_id),
      records.map((r) => r.mail.action),
      records.map((r) => r.state),
      records.map((r) => r.reason),
      records.map((r) => r.recipient),
      records.map((r) => r.window),
    ],
  );
  // Held and skipped are decided for good; a mail to send stays "to decide" until it went, so
  // that the offline check's sweep finds it again if its job is lost.
  const done = records.filter((r) => r.state !== 'sending');
  for (const action of ['raised', 'cleared'] as const) {
    const uids = done.filter((r) => r.mail.action === action).map((r) => r.mail.alert_id);
    if (uids.length > 0)
      await tx.query(`UPDATE alerts SET ${action === 'raised' ? 'mail_raised' : 'mail_cleared'} = true WHERE uid = ANY($1::bigint[])`, [uids]);
  }
  for (const r of records) {
    decisions.set(
      alertMailKey(r.mail),
      r.state === 'sending'
        ? { kind: 'send', to: r.recipient }
        : r.state === 'held'
          ? { kind: 'held', reason: r.reason! }
          : { kind: 'skipped', reason: r.reason! },
    );
  }
  return decisions;
}

/**
 * The mails of alert changes, decided in the transaction that raised or cleared them (the
 * router's, the offline check's): `mail` stays true only for those a job is to send, the few an
 * hour the limits allow; skipped and held ones are recorded there, so that a storm of alerts makes
 * no storm of jobs.
 */
export async function decideMails(tx: Pick<EntityManager, 'query'>, changes: AlertChange[], limits: AlertMailLimits): Promise<void> {
  const decided = await decideAlertMails(
    tx,
    changes.filter((c) => c.mail),
    limits,
    new Date(),
  );
  for (const c of changes) if (c.mail) c.mail = decided.get(alertMailKey(c))?.kind === 'send';
}

/**
 * The decisions on alert mails (docs/api.md §19): verified addresses only, at most so many per
 * recipient and per account in each clock hour, the rest held and folded into one digest per
 * recipient and hour. Every count and decision is in the database, so any number of workers share
 * them.
 */
@Injectable()
export class AlertMailsRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /**
   * Decides one mail, once, for the alert.mail job (decideAlertMails, with the alert locked so that
   * two jobs for the same mail decide one after the other). A mail decided `send` earlier but not
   * recorded sent (its job retried after a failed hand-off, or a mail the router decided) is sent
   * without a second place.
   */
  decide(alertUid: string, action: AlertMailAction, limits: AlertMailLimits, now: Date): Promise<AlertMailDecision> {
    return this.ds.transaction(async (tx) => {
      const [alert] = (await tx.query('SELECT mail_raised, mail_cleared FROM alerts WHERE uid = $1 FOR UPDATE', [alertUid])) as {
        mail_raised: boolean | null;
        mail_cleared: boolean | null;
      }[];
      // Gone; no mail wanted (null); decided already (true).
      if (!alert || (action === 'raised' ? alert.mail_raised : alert.mail_cleared) !== false) return { kind: 'none' };
      const [earlier] = (await tx.query('SELECT state, recipient FROM alert_mails WHERE alert_id = $1 AND action = $2', [alertUid, action])) as {
        state: string;
        recipient: string;
      }[];
      if (earlier) return earlier.state === 'sending' ? { kind: 'send', to: earlier.recipient } : { kind: 'none' };
      const ref = { alert_id: alertUid, action };
      return (await decideAlertMails(tx, [ref], limits, now)).get(alertMailKey(ref)) ?? { kind: 'none' };
    });
  }

  /** The mail handed to the transport: recorded sent. */
  async sent(alertUid: string, action: AlertMailAction): Promise<void> {
    await this.ds.transaction(async (tx) => {
      await tx.query(`UPDATE alert_mails SET state = 'sent', sent_at = now() WHERE alert_id = $1 AND action = $2 AND state = 'sending'`, [alertUid, action]);
      await this.markDecided(tx, alertUid, action);
    });
  }

  private async markDecided(tx: Pick<EntityManager, 'query'>, alertUid: string, action: AlertMailAction): Promise<void> {
    await tx.query(`UPDATE alerts SET ${action === 'raised' ? 'mail_raised' : 'mail_cleared'} = true WHERE uid = $1`, [alertUid]);
  }

  /**
   * The next digest to send, claimed for `leaseMs`: first one whose sender's lease ran out (a worker
   * died sending it), else a new one for the held mails of one recipient in one hour that ended at
   * least `graceMs` before `now` (a decision still committing at the hour's end lands in it). Null
   * when there is none. Two workers claiming at once take different mails: each mail joins the one
   * digest whose claim marked it first.
   */
  async claimDigest(now: Date, leaseMs: number, graceMs: number): Promise<ClaimedDigest | null> {
    const leaseUntil = new Date(now.getTime() + leaseMs);
    for (;;) {
      const retaken = await returningRows<{ id: string; recipient: string; window_start: Date }>(
        this.ds,
        `UPDATE alert_mail_digests SET lease_until = $2
         WHERE id = (SELECT id FROM alert_mail_digests WHERE sent_at IS NULL AND lease_until < $1 ORDER BY lease_until LIMIT 1 FOR UPDATE SKIP LOCKED)
         RETURNING id::text AS id, recipient, window_start`,
        [now, leaseUntil],
      );
      const [old] = retaken;
      if (old) return { id: old.id, recipient: old.recipient, windowStart: old.window_start };

      const [due] = (await this.ds.query(
        `SELECT recipient, window_start FROM alert_mails WHERE state = 'held' AND digest_id IS NULL AND window_start <= $1
         ORDER BY window_start, recipient LIMIT 1`,
        [new Date(now.getTime() - 3_600_000 - graceMs)],
      )) as { recipient: string; window_start: Date }[];
      if (!due) return null;
      const claimed = await this.ds.transaction(async (tx) => {
        const [digest] = await returningRows<{ id: string }>(
          tx,
          'INSERT INTO alert_mail_digests (recipient, window_start, lease_until) VALUES ($1, $2, $3) RETURNING id::text AS id',
          [due.recipient, due.window_start, leaseUntil],
        );
        const taken = await returningRows<{ alert_id: string }>(
          tx,
          `UPDATE alert_mails SET digest_id = $1 WHERE state = 'held' AND digest_id IS NULL AND recipient = $2 AND window_start = $3
           RETURNING alert_id::text AS alert_id`,
          [digest!.id, due.recipient, due.window_start],
        );
        // Another worker's claim took them between the look and the update: no digest of nothing.
        if (taken.length === 0) {
          await tx.query('DELETE FROM alert_mail_digests WHERE id = $1', [digest!.id]);
          return null;
        }
        return { id: digest!.id, recipient: due.recipient, windowStart: due.window_start };
      });
      if (claimed) return claimed;
    }
  }

  /** What a digest folds: each mail's alert, oldest first. */
  digestItems(digestId: string): Promise<DigestedAlertMail[]> {
    return this.ds
      .query(
        `SELECT m.action, CASE WHEN m.action = 'raised' THEN a.raised_at ELSE coalesce(a.cleared_at, a.raised_at) END AS at, a.message, a.rule_name AS rule
         FROM alert_mails m JOIN alerts a ON a.uid = m.alert_id WHERE m.digest_id = $1 ORDER BY at, m.alert_id, m.action DESC`,
        [digestId],
      )
      .then((rows: { action: AlertMailAction; at: Date; message: string; rule: string }[]) =>
        rows.map((r) => ({ action: r.action, at: new Date(r.at), message: r.message, rule: r.rule })),
      );
  }

  /** The digest went (or had nothing left to tell: its alerts were deleted meanwhile): its mails are `digested`. */
  async digestSent(digest: ClaimedDigest, alerts: number): Promise<void> {
    const span = `${utcMinute(digest.windowStart)}–${hhmm(hourWindowEnd(digest.windowStart))} UTC`;
    await this.ds.transaction(async (tx) => {
      await tx.query('UPDATE alert_mail_digests SET sent_at = now(), alerts = $2 WHERE id = $1', [digest.id, alerts]);
      await tx.query(`UPDATE alert_mails SET state = 'digested', sent_at = now(), reason = $2 WHERE digest_id = $1 AND state = 'held'`, [
        digest.id,
        `sent in the digest of ${span}`,
      ]);
    });
  }
}
