/**
 * Retention of raw uplinks (docs/api.md §5, "Retention"): a platform default (UPLINK_RETENTION_DAYS),
 * an account's own value set by an administrator, and a device's own value its owner may set
 * shorter. Rollups outlive raw uplinks, so a series still answers for the time a retention removed.
 * Every value is whole days; null means "no limit" (kept forever). The maintenance job removes
 * what a retention has passed with the same rule in SQL (RetentionRepository's EFFECTIVE_DAYS);
 * the api's answers say the same through these functions.
 */

/** The shortest retention that may be set. */
export const RETENTION_DAYS_MIN = 1;
/** A hundred years: "keep" is said by leaving a retention unset (null), not by a huge number. */
export const RETENTION_DAYS_MAX = 36_500;

/** The retention in force for an account's devices: its own value, else the platform's; null keeps. */
export function accountRetentionDays(accountDays: number | null, platformDays: number | null): number | null {
  return accountDays ?? platformDays;
}

/**
 * A device's effective retention: its own value only where it is shorter than its account's in
 * force (the shortest limit that is set, as SQL's `least` skipping nulls); null keeps.
 */
export function effectiveRetentionDays(deviceDays: number | null, accountInForceDays: number | null): number | null {
  if (deviceDays === null) return accountInForceDays;
  if (accountInForceDays === null) return deviceDays;
  return Math.min(deviceDays, accountInForceDays);
}

/**
 * Whether an owner may give the device this value of its own: null (none) always; a number no
 * longer than the account's retention in force (a device may only shorten it).
 */
export function deviceRetentionAllowed(deviceDays: number | null, accountInForceDays: number | null): boolean {
  return deviceDays === null || accountInForceDays === null || deviceDays <= accountInForceDays;
}

/**
 * Headers of the history reads (`GET /user/device/table|data/{eui}`, every format): the device's
 * retention in force, in days or `unlimited`; and the time (unix seconds, a UTC midnight) before
 * which its raw uplinks are removed, absent when they are kept.
 */
export const RETENTION_DAYS_HEADER = 'X-Retention-Days';
export const RAW_HISTORY_FROM_HEADER = 'X-Raw-History-From';
/** X-Retention-Days of a device whose raw uplinks are kept forever. */
export const RETENTION_UNLIMITED = 'unlimited';

/** What a history answer's headers say of the device's retention. */
export interface HistoryRetention {
  /** The retention in force in days; null: kept forever. */
  retention_days: number | null;
  /** Raw uplinks received before this time (unix seconds, a UTC midnight) are removed; null: none are. */
  raw_history_from_unix: number | null;
}

/** The headers of a history answer, by their names. */
export function historyRetentionHeaders(retention: HistoryRetention): Record<string, string> {
  const headers: Record<string, string> = {
    [RETENTION_DAYS_HEADER]: retention.retention_days === null ? RETENTION_UNLIMITED : String(retention.retention_days),
  };
  if (retention.raw_history_from_unix !== null) headers[RAW_HISTORY_FROM_HEADER] = String(retention.raw_history_from_unix);
  return headers;
}

const WHOLE = /^\d{1,15}$/;

/**
 * Reads the headers of a history answer (`get` as the Fetch API's Headers.get); null when they do
 * not say (a service from before retention, or a header that is not one of ours).
 */
export function readHistoryRetention(get: (name: string) => string | null): HistoryRetention | null {
  const days = get(RETENTION_DAYS_HEADER)?.trim();
  const from = get(RAW_HISTORY_FROM_HEADER)?.trim();
  if (days === RETENTION_UNLIMITED) return from ? null : { retention_days: null, raw_history_from_unix: null };
  if (days === undefined || !WHOLE.test(days) || from === undefined || !WHOLE.test(from)) return null;
  return { retention_days: Number(days), raw_history_from_unix: Number(from) };
}
