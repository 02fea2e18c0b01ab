/**
 * The one home for bounded waiting in the suites (the api's e2e specs and the libs' int specs): a test waits for the state it needs (a row,
 * a delivery at the receiver, a status through the api, a log line), never for a fixed time.
 */

export interface EventuallyOptions {
  /** What the test waits for, named in the error when it does not come. */
  what: string;
  /** How long to keep trying; the error says it ran out. */
  timeoutMs?: number;
  /** The pause between tries: short, since most of what we wait for is a few milliseconds away. */
  intervalMs?: number;
}

/**
 * Calls `check` until it passes (returns something other than `false` without throwing) and returns
 * what it returned. An `expect` inside the check is fine: its failure is retried, and on timeout the
 * last one is in the error, so a test that waits in vain says both what it waited for and what it saw.
 */
export async function eventually<T>(check: () => T | Promise<T>, { what, timeoutMs = 10_000, intervalMs = 25 }: EventuallyOptions): Promise<Exclude<T, false>> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown = 'the check returned false';
  for (;;) {
    try {
      const value = await check();
      if (value !== false) return value as Exclude<T, false>;
      last = 'the check returned false';
    } catch (error) {
      last = error;
    }
    if (Date.now() >= deadline) {
      const why = last instanceof Error ? last.message : String(last);
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}; last: ${why}`);
    }
    await pause(intervalMs);
  }
}

/**
 * A real-time pause, for the few waits that are about time itself: that something does NOT happen
 * within a window, or that a clock-based limit (a TTL, a backoff) has passed. Each caller says why in
 * a comment; anything else waits with `eventually`.
 */
export function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
