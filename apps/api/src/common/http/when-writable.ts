import type { Response } from 'express';
import { once } from 'node:events';

/**
 * Resolves when a response that refused a write (`write()` returned false) can take more, or has
 * closed. Neither listener outlives the wait: a plain race of two `once` calls would leave the
 * loser's listeners (and an 'error' one) on the response, a pair per wait, thousands on a long
 * export or live feed.
 */
export async function whenWritable(res: Response): Promise<void> {
  const stop = new AbortController();
  try {
    await Promise.race([once(res, 'drain', { signal: stop.signal }), once(res, 'close', { signal: stop.signal })]);
  } finally {
    stop.abort();
  }
}
