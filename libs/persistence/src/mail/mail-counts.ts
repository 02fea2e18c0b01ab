import type { EntityManager } from 'typeorm';

/** What a mail is counted as (the `mail_counts.scope` values). */
export type MailCountScope = 'alert-account' | 'alert-recipient' | 'verification' | 'invitation';

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
 * Takes up to `wanted` places under every counter for the hour `window`, as many as the fullest
 * counter has room for: in the caller's transaction, each counter's row is made if missing and
 * locked (an upsert), in the order given, so workers in any number of processes agree and never
 * both take a last place. Callers pass counters in one fixed order (scope, then key), which keeps
 * two transactions from waiting on each other. Answers how many were taken and, when fewer than
 * wanted, the counter that had no more room.
 */
export async function takeMailPlaces(
  tx: Pick<EntityManager, 'query'>,
  counters: readonly MailCounter[],
  window: Date,
  wanted: number,
): Promise<{ taken: number; full: MailCounter | null }> {
  let taken = wanted;
  let full: MailCounter | null = null;
  for (const c of counters) {
    const [row] = (await tx.query(
      `INSERT INTO mail_counts (scope, key, window_start, sent) VALUES ($1, $2, $3, 0)
       ON CONFLICT (scope, key, window_start) DO UPDATE SET sent = mail_counts.sent RETURNING sent`,
      [c.scope, c.key, window],
    )) as { sent: number }[];
    const room = Math.max(0, c.limit - (row?.sent ?? 0));
    if (room < taken) {
      taken = room;
      full = c;
    }
  }
  if (taken > 0) {
    for (const c of counters) {
      await tx.query('UPDATE mail_counts SET sent = sent + $4 WHERE scope = $1 AND key = $2 AND window_start = $3', [c.scope, c.key, window, taken]);
    }
  }
  return { taken, full };
}

/** Mails counted under one counter in the hour `window`. */
export async function mailsCounted(db: Pick<EntityManager, 'query'>, scope: MailCountScope, key: string, window: Date): Promise<number> {
  const [row] = (await db.query('SELECT sent FROM mail_counts WHERE scope = $1 AND key = $2 AND window_start = $3', [scope, key, window])) as {
    sent: number;
  }[];
  return row?.sent ?? 0;
}
