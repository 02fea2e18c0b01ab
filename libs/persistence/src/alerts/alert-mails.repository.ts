import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DigestedAlertMail } from '@dts/domain';
import { DataSource, type EntityManager } from 'typeorm';
import { hourWindow, hourWindowEnd, type MailCounter, takeMailPlace } from '../mail/mail-counts';
import { returningRows } from '../repositories/sql-results';

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
   * Decides one mail, once: in one transaction the alert row is locked (two jobs for the same mail
   * decide one after the other), the account's address and whether it is verified are read, and a
   * place under both limits is taken or the mail held. A mail decided `send` earlier but not
   * recorded sent (its job retried after a failed hand-off) is sent again without a second place.
   */
  decide(alertUid: string, action: AlertMailAction, limits: AlertMailLimits, now: Date): Promise<AlertMailDecision> {
    return this.ds.transaction(async (tx) => {
      const [alert] = (await tx.query(
        `SELECT a.account_id, a.mail_raised, a.mail_cleared, ac.email, ac.email_key, ac.email_verified_at IS NOT NULL AS verified
         FROM alerts a JOIN accounts ac ON ac.id = a.account_id WHERE a.uid = $1 FOR UPDATE OF a`,
        [alertUid],
      )) as { account_id: number; mail_raised: boolean | null; mail_cleared: boolean | null; email: string; email_key: string; verified: boolean }[];
      if (!alert) return { kind: 'none' };
      // null: the rule wanted no mail; true: decided already.
      if ((action === 'raised' ? alert.mail_raised : alert.mail_cleared) !== false) return { kind: 'none' };
      const [earlier] = (await tx.query('SELECT state, recipient FROM alert_mails WHERE alert_id = $1 AND action = $2', [alertUid, action])) as {
        state: string;
        recipient: string;
      }[];
      if (earlier?.state === 'sending') return { kind: 'send', to: earlier.recipient };

      const record = async (state: 'sending' | 'held' | 'skipped', reason: string | null, window: Date | null) => {
        await tx.query(
          `INSERT INTO alert_mails (alert_id, action, state, reason, recipient, window_start) VALUES ($1, $2, $3, $4, $5, $6)
           ON CONFLICT (alert_id, action) DO UPDATE SET state = excluded.state, reason = excluded.reason, recipient = excluded.recipient,
             window_start = excluded.window_start, decided_at = now()`,
          [alertUid, action, state, reason, alert.email, window],
        );
        if (state !== 'sending') await this.markDecided(tx, alertUid, action);
      };
      if (!alert.verified) {
        await record('skipped', UNVERIFIED_REASON, null);
        return { kind: 'skipped', reason: UNVERIFIED_REASON };
      }
      const window = hourWindow(now);
      // Scope order ('alert-account' before 'alert-recipient') is the lock order every worker keeps.
      const counters: MailCounter[] = [
        { scope: 'alert-account', key: String(alert.account_id), limit: limits.perAccountPerHour },
        { scope: 'alert-recipient', key: alert.email_key, limit: limits.perRecipientPerHour },
      ];
      const full = await takeMailPlace(tx, counters, window);
      if (full === null) {
        await record('sending', null, window);
        return { kind: 'send', to: alert.email };
      }
      const over =
        full.scope === 'alert-account'
          ? `over the account’s limit of ${full.limit} alert mails an hour`
          : `over the limit of ${full.limit} alert mails an hour to ${alert.email}`;
      const reason = `${over}: in the digest mailed after ${hhmm(hourWindowEnd(now))} UTC`;
      await record('held', reason, window);
      return { kind: 'held', reason };
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
