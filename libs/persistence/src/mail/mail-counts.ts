import type { EntityManager } from 'typeorm';

/** What a mail is counted as (the `mail_counts.scope` values). */
export type MailCountScope = 'alert-account' | 'alert-recipient' | 'verification';

export interface MailCounter {
  scope: MailCountScope;
  key: string;
  /** Mails of this scope and key allowed per hour. */
  limit: number;
}

const HOUR_MS = 3_600_000;

/** The clock hour (UTC) `at` falls in: the window every hourly mail limit counts in. */
export function hourWindow(at: Date): Date {
  return new Date(Math.floor(at.getTime() / HOUR_MS) * HOUR_MS);
}

/** The end of the hour `at` falls in. */
export function hourWindowEnd(at: Date): Date {
  return new Date(hourWindow(at).getTime() + HOUR_MS);
}

/**
 * Takes one place under every counter for the hour `window`, or none: in the caller's transaction,
 * each counter's row is made if missing and locked (an upsert), in the order given, so workers in
 * any number of processes agree and never both take a last place; callers pass counters in one
 * fixed order (scope, then key), which keeps two transactions from waiting on each other.
 * Answers the first counter found full, or null when the place was taken under all of them.
 */
export async function takeMailPlace(tx: EntityManager, counters: readonly MailCounter[], window: Date): Promise<MailCounter | null> {
  const held: number[] = [];
  for (const c of counters) {
    const [row] = (await tx.query(
      `INSERT INTO mail_counts (scope, key, window_start, sent) VALUES ($1, $2, $3, 0)
       ON CONFLICT (scope, key, window_start) DO UPDATE SET sent = mail_counts.sent RETURNING sent`,
      [c.scope, c.key, window],
    )) as { sent: number }[];
    held.push(row?.sent ?? 0);
  }
  const full = counters.find((c, i) => (held[i] ?? 0) >= c.limit);
  if (full) return full;
  for (const c of counters) {
    await tx.query('UPDATE mail_counts SET sent = sent + 1 WHERE scope = $1 AND key = $2 AND window_start = $3', [c.scope, c.key, window]);
  }
  return null;
}

/** Mails counted under one counter in the hour `window`. */
export async function mailsCounted(db: Pick<EntityManager, 'query'>, scope: MailCountScope, key: string, window: Date): Promise<number> {
  const [row] = (await db.query('SELECT sent FROM mail_counts WHERE scope = $1 AND key = $2 AND window_start = $3', [scope, key, window])) as {
    sent: number;
  }[];
  return row?.sent ?? 0;
}
