import type { Response } from 'express';

/**
 * Resolves when a response that refused a write (`write()` returned false) can take more, or has
 * closed. Neither listener outlives the wait: a plain race of two `once` calls would leave the
 * loser's listeners on the response, a pair per wait, thousands on a long export or live feed.
 * Plain listeners rather than `events.once` with an AbortSignal: aborting builds an AbortError
 * with its stack for every wait, which cost a 100,000-row export about 5% of its CPU
 * (docs/benchmarks.md, figure 3).
 */
export function whenWritable(res: Response): Promise<void> {
  return new Promise((resolve) => {
    if (res.destroyed) return resolve();
    const done = (): void => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}
