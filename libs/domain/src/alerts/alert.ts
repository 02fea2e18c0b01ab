import type { RuleKind } from './rule';

/**
 * An alert: one incident of a rule's condition on one device, from the moment it was raised to the
 * moment it cleared (docs/api.md §19). Acknowledging says a person has seen it; it clears only when
 * the condition ends (the device re-enters the fence, reports again, comes back within limits).
 */
export const ALERT_STATES = ['active', 'cleared'] as const;
export type AlertState = (typeof ALERT_STATES)[number];
/** The `state` filter of GET /user/alert: the two states, or by acknowledgement. */
export const ALERT_STATE_FILTERS = ['active', 'cleared', 'acknowledged', 'unacknowledged'] as const;
export type AlertStateFilter = (typeof ALERT_STATE_FILTERS)[number];

/**
 * What became of one mail of an alert (docs/api.md §19): `pending` still to be decided or sent;
 * `sent`; `held` over the hourly limits, waiting for the hour's digest; `digested` sent in a digest;
 * `skipped` never sent, `reason` saying why (the account's address is not verified).
 */
export const ALERT_MAIL_STATES = ['pending', 'sent', 'held', 'digested', 'skipped'] as const;
export type AlertMailState = (typeof ALERT_MAIL_STATES)[number];

export interface AlertMailOutcomeWire {
  state: AlertMailState;
  /** For people: why it was held or skipped, which digest took it; null while pending or once sent. */
  reason: string | null;
}

/** The mails of an alert whose rule says `email`: of its raise, and of its clear once cleared. */
export interface AlertMailWire {
  raised: AlertMailOutcomeWire;
  cleared: AlertMailOutcomeWire | null;
}

export interface AlertWire {
  uid: number;
  /** The rule as it was when the alert was raised; `uid` null once the rule is deleted. */
  rule: { uid: number | null; name: string; kind: RuleKind };
  devEUI: string;
  state: AlertState;
  acknowledged: boolean;
  /** One line for people: "Tracker 7 left fence Farm". */
  message: string;
  /**
   * What was observed: fence `{fence, on, lat, lon}`, offline `{minutes, last_uplink_unix}`,
   * threshold and battery `{member, value, above | below, hysteresis}`; `cleared_by` the same for the
   * observation that cleared it.
   */
  details: Record<string, unknown>;
  raised_unix: number;
  cleared_unix: number | null;
  acknowledged_unix: number | null;
  /** null when the rule did not ask for mail. */
  mail: AlertMailWire | null;
}

/** Query of GET /user/alert. */
export interface AlertQuery {
  /** Raised within [from, to], unix seconds. */
  from?: number;
  to?: number;
  state?: AlertStateFilter;
  eui?: string;
  limit?: number;
  /** Alerts older than this uid. */
  before?: number | string;
}
