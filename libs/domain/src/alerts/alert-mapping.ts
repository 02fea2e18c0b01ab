import { toUnix } from '../time';
import type { AlertMailOutcomeWire, AlertMailState, AlertWire } from './alert';
import type { RuleKind } from './rule';

/*
 * The stored alert and its mapping to the wire, which both the api (GET /user/alert) and the worker
 * (the `alert` event's body) use, like the mappings of wire/event-mappings.ts: here, beside
 * AlertWire, because wire/ imports no domain folder (docs/architecture.md, "Arrows within a project").
 */

/**
 * A decided alert mail as stored: `sending` is counted against the hourly limits and being handed to
 * the mail transport (shown as `pending`); the other states are the wire's.
 */
export type StoredAlertMailState = 'sending' | Exclude<AlertMailState, 'pending'>;

export interface StoredAlert {
  uid: string;
  rule_id: number | null;
  rule_name: string;
  rule_kind: RuleKind;
  eui: string;
  message: string;
  details: Record<string, unknown>;
  raised_at: Date;
  cleared_at: Date | null;
  acknowledged_at: Date | null;
  /** The alert's mail flag: null when its rule wanted no mail. */
  mail_raised: boolean | null;
  /** The decision on each mail, null while none was taken. */
  mail_raised_state: StoredAlertMailState | null;
  mail_raised_reason: string | null;
  mail_cleared_state: StoredAlertMailState | null;
  mail_cleared_reason: string | null;
}

function mailOutcome(state: StoredAlertMailState | null, reason: string | null): AlertMailOutcomeWire {
  return state === null || state === 'sending' ? { state: 'pending', reason: null } : { state, reason };
}

export function toAlertWire(row: StoredAlert): AlertWire {
  return {
    uid: Number(row.uid),
    rule: { uid: row.rule_id, name: row.rule_name, kind: row.rule_kind },
    devEUI: row.eui,
    state: row.cleared_at === null ? 'active' : 'cleared',
    acknowledged: row.acknowledged_at !== null,
    message: row.message,
    details: row.details,
    raised_unix: toUnix(row.raised_at),
    cleared_unix: row.cleared_at === null ? null : toUnix(row.cleared_at),
    acknowledged_unix: row.acknowledged_at === null ? null : toUnix(row.acknowledged_at),
    mail:
      row.mail_raised === null
        ? null
        : {
            raised: mailOutcome(row.mail_raised_state, row.mail_raised_reason),
            cleared: row.cleared_at === null ? null : mailOutcome(row.mail_cleared_state, row.mail_cleared_reason),
          },
  };
}
