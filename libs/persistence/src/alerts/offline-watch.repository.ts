import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { RuleKind } from '@dts/domain';
import { DataSource } from 'typeorm';
import type { AlertChange } from '../integrations/routing-batch';
import { type AlertMailLimits, decideMails } from './alert-mails.repository';
import { raiseAlert } from './alert-writes';

/** An offline rule's state that has come due, with what deciding it needs. */
export interface DueWatch {
  rule_id: number;
  device_id: number;
  account_id: number;
  name: string;
  kind: RuleKind;
  email: boolean;
  minutes: number;
  eui: string;
  label: string;
  ts_activity_last: Date | null;
  now: Date;
}

/** What became of a due state: watched again from a later uplink, or silent (an alert). */
export type WatchDecision = { rearmAt: Date } | { silent: { message: string; details: Record<string, unknown> } };

/**
 * The offline check reads only states that are due (an index on `due_at`), never every device: an
 * uplink moves a device's due time forward (the router), and a due state is either re-armed from
 * the device's last uplink or turned into an alert.
 */
@Injectable()
export class OfflineWatchRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /** Decides up to `limit` due states; resolves with how many, and the alerts raised (for the live feeds). */
  async processDue(limit: number, decide: (due: DueWatch) => WatchDecision, mailLimits: AlertMailLimits): Promise<{ due: number; raised: AlertChange[] }> {
    return this.ds.transaction(async (tx) => {
      const due: DueWatch[] = await tx.query(
        `SELECT s.rule_id, s.device_id, r.account_id, r.name, r.kind, r.email, r.minutes, d.eui, d.label, d.ts_activity_last, now() AS now
         FROM rule_states s JOIN alert_rules r ON r.uid = s.rule_id JOIN devices d ON d.uid = s.device_id
         WHERE s.due_at <= now() AND r.enabled AND r.kind = 'offline' AND d.deleted_at IS NULL
         ORDER BY s.due_at LIMIT $1 FOR UPDATE OF s SKIP LOCKED`,
        [limit],
      );
      const raised: AlertChange[] = [];
      for (const w of due) {
        const decision = decide(w);
        if ('rearmAt' in decision) {
          await tx.query('UPDATE rule_states SET due_at = $3 WHERE rule_id = $1 AND device_id = $2', [w.rule_id, w.device_id, decision.rearmAt]);
          continue;
        }
        const alertId = await raiseAlert(tx, {
          rule: { uid: w.rule_id, account_id: w.account_id, name: w.name, kind: w.kind, email: w.email },
          device_id: w.device_id,
          message: decision.silent.message,
          details: decision.silent.details,
          at: w.now,
        });
        raised.push({ device_id: w.device_id, alert_id: alertId, action: 'raised', mail: w.email });
        // Observed at the whole second: the router compares uplinks by their whole-second time and
        // skips one older than the state, so an uplink in the second the alert was raised still clears it.
        await tx.query(
          `UPDATE rule_states SET state = 'offline', observed_at = date_trunc('second', $3::timestamptz), alert_id = $4, due_at = NULL
           WHERE rule_id = $1 AND device_id = $2`,
          [w.rule_id, w.device_id, w.now, alertId],
        );
      }
      // States of disabled or deleted rules' devices that came due are parked, not read again and again.
      await tx.query(
        `UPDATE rule_states s SET due_at = NULL FROM alert_rules r WHERE r.uid = s.rule_id AND s.due_at <= now() AND (NOT r.enabled OR r.kind <> 'offline')`,
      );
      await decideMails(tx, raised, mailLimits);
      return { due: due.length, raised };
    });
  }
}
