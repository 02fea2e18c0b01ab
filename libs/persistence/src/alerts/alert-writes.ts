import type { EntityManager } from 'typeorm';
import type { RuleKind } from '@dts/domain';
import { onlyRow, returningRows } from '../sql/sql-results';

/** An alert to raise: the rule as it is now (its name and kind are kept with the alert). */
export interface AlertToRaise {
  rule: { uid: number; account_id: number; name: string; kind: RuleKind; email: boolean };
  device_id: number;
  message: string;
  details: Record<string, unknown>;
  at: Date;
}

/**
 * Raises an alert and adds its event to the outbox, in the caller's transaction (the router's or the
 * offline check's): the alert and its event commit together. Returns the alert's uid.
 */
export async function raiseAlert(tx: EntityManager, r: AlertToRaise): Promise<string> {
  const { uid } = onlyRow(
    await returningRows<{ uid: string }>(
      tx,
      `INSERT INTO alerts (account_id, rule_id, rule_name, rule_kind, device_id, message, details, raised_at, mail_raised)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING uid::text AS uid`,
      [r.rule.account_id, r.rule.uid, r.rule.name, r.rule.kind, r.device_id, r.message, JSON.stringify(r.details), r.at, r.rule.email ? false : null],
    ),
  );
  await tx.query(`INSERT INTO events (kind, device_id, ref, status) VALUES ('alert', $1, $2, 'active')`, [r.device_id, uid]);
  return uid;
}

/**
 * Clears an active alert (`by`: the observation that ended it) and adds its event; a cleared one is
 * left as it is. Resolves with whether it cleared, and whether the clear is to be mailed.
 */
export async function clearAlert(tx: EntityManager, alertId: string, at: Date, by: Record<string, unknown>): Promise<{ cleared: boolean; mail: boolean }> {
  const rows = await returningRows<{ device_id: number; mail: boolean }>(
    tx,
    `UPDATE alerts SET cleared_at = $2, details = details || jsonb_build_object('cleared_by', $3::jsonb),
            mail_cleared = CASE WHEN mail_raised IS NULL THEN NULL ELSE false END
     WHERE uid = $1 AND cleared_at IS NULL RETURNING device_id, mail_cleared IS NOT NULL AS mail`,
    [alertId, at, JSON.stringify(by)],
  );
  const [row] = rows;
  if (!row) return { cleared: false, mail: false };
  await tx.query(`INSERT INTO events (kind, device_id, ref, status) VALUES ('alert', $1, $2, 'cleared')`, [row.device_id, alertId]);
  return { cleared: true, mail: row.mail };
}
