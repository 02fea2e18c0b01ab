import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { AlertStateFilter, StoredAlert } from '@dts/domain';
import { DataSource } from 'typeorm';
import { returningRows } from '../sql/sql-results';

/** A stored alert (the domain's StoredAlert, which the wire mapping reads) with the ids it is kept under. */
export interface AlertRow extends StoredAlert {
  account_id: number;
  device_id: number;
}

/** The query of an AlertRow (add the WHERE): the alert with the decisions on its mails. */
export const ALERT_ROW_QUERY = `SELECT a.uid::text AS uid, a.account_id, a.rule_id, a.rule_name, a.rule_kind, a.device_id, d.eui, a.message, a.details,
  a.raised_at, a.cleared_at, a.acknowledged_at, a.mail_raised, mr.state AS mail_raised_state, mr.reason AS mail_raised_reason,
  mc.state AS mail_cleared_state, mc.reason AS mail_cleared_reason
  FROM alerts a JOIN devices d ON d.uid = a.device_id
  LEFT JOIN alert_mails mr ON mr.alert_id = a.uid AND mr.action = 'raised'
  LEFT JOIN alert_mails mc ON mc.alert_id = a.uid AND mc.action = 'cleared'`;

export interface AlertQuery {
  /** Raised within [from, to], unix seconds, inclusive. */
  from: number | null;
  to: number | null;
  state: AlertStateFilter | null;
  deviceId: number | null;
  /** Keyset: alerts listed after this uid (the last of the previous page). */
  before: string | null;
  limit: number;
}

const STATE_SQL: Record<AlertStateFilter, string> = {
  active: 'a.cleared_at IS NULL',
  cleared: 'a.cleared_at IS NOT NULL',
  acknowledged: 'a.acknowledged_at IS NOT NULL',
  unacknowledged: 'a.acknowledged_at IS NULL',
};

/** An account's alerts (raised by the worker's router and offline check), newest first. */
@Injectable()
export class AlertsRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  list(accountId: number, q: AlertQuery): Promise<AlertRow[]> {
    return this.ds.query(
      `${ALERT_ROW_QUERY}
       WHERE a.account_id = $1 AND d.deleted_at IS NULL
         AND ($2::bigint IS NULL OR a.raised_at >= to_timestamp($2::bigint))
         AND ($3::bigint IS NULL OR a.raised_at < to_timestamp($3::bigint + 1))
         AND ($4::int IS NULL OR a.device_id = $4)
         AND ($5::bigint IS NULL OR a.uid < $5)
         ${q.state ? `AND ${STATE_SQL[q.state]}` : ''}
       ORDER BY a.uid DESC LIMIT $6`,
      [accountId, q.from, q.to, q.deviceId, q.before, q.limit],
    );
  }

  async find(accountId: number, uid: string): Promise<AlertRow | null> {
    const rows: AlertRow[] = await this.ds.query(`${ALERT_ROW_QUERY} WHERE a.account_id = $1 AND a.uid = $2 AND d.deleted_at IS NULL`, [accountId, uid]);
    return rows[0] ?? null;
  }

  /** For the live feed and the mail job: whoever's it is. */
  async byUid(uid: string): Promise<AlertRow | null> {
    const rows: AlertRow[] = await this.ds.query(`${ALERT_ROW_QUERY} WHERE a.uid = $1`, [uid]);
    return rows[0] ?? null;
  }

  /** Acknowledges (once: a second acknowledgement keeps the first time); null when no such alert of the account. */
  async acknowledge(accountId: number, uid: string): Promise<AlertRow | null> {
    const rows = await returningRows<{ uid: string }>(
      this.ds,
      `UPDATE alerts a SET acknowledged_at = coalesce(a.acknowledged_at, now())
       FROM devices d WHERE d.uid = a.device_id AND d.deleted_at IS NULL AND a.account_id = $1 AND a.uid = $2 RETURNING a.uid::text AS uid`,
      [accountId, uid],
    );
    return rows.length === 0 ? null : this.find(accountId, uid);
  }

  /** Alerts whose raise or clear still has to be mailed, older than `seconds` (their job may have been lost). */
  async mailsWaiting(seconds: number, limit: number): Promise<{ uid: string; action: 'raised' | 'cleared' }[]> {
    // `ORDER BY alerts.uid`, qualified: a bare `uid` names the text output column and sorts '10' before '9'.
    return this.ds.query(
      `SELECT uid::text AS uid, CASE WHEN mail_raised = false THEN 'raised' ELSE 'cleared' END AS action FROM alerts
       WHERE (mail_raised = false OR mail_cleared = false) AND coalesce(cleared_at, raised_at) < now() - $1 * interval '1 second'
       ORDER BY alerts.uid LIMIT $2`,
      [seconds, limit],
    );
  }
}
