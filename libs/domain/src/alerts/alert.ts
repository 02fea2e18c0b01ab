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
