/**
 * When a failed delivery is tried again: exponential backoff (1 s, 2 s, 4 s … capped at an hour)
 * with jitter (a random 50–100 % of the step, so that many lanes failing together do not retry
 * together), until the delivery is older than the retry window (about a day by default); then it
 * is `failed`.
 */
export const RETRY_BASE_MS = 1_000;
export const RETRY_CAP_MS = 3_600_000;

/** Delay before attempt `failures + 1`, after `failures` failed attempts (≥ 1); `random` in [0, 1). */
export function retryDelayMs(failures: number, random: number = Math.random()): number {
  const step = Math.min(RETRY_CAP_MS, RETRY_BASE_MS * 2 ** Math.min(30, Math.max(0, failures - 1)));
  return Math.round(step * (0.5 + random / 2));
}

/** Whether a delivery created at `createdAtMs` that just failed is given up at `nowMs`. */
export function retryWindowOver(createdAtMs: number, nowMs: number, windowMs: number): boolean {
  return nowMs - createdAtMs >= windowMs;
}
