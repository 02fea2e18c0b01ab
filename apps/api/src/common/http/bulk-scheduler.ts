/*
 * Bulk reads (history exports of up to 100,000 rows) share one event loop with every other request
 * the process serves, and would take all of it: rendering a database batch of rows holds the loop
 * for milliseconds at a time, and the driver parses a query's whole answer in one go when it
 * arrives at once. A small request needs several turns of the loop (authentication, rate limit,
 * its query, its answer) and waited behind every export at each of them: with four 100,000-row
 * exports streaming, GET /user took 654 ms at the median and 2.4 s at p99.
 *
 * So bulk work is scheduled process-wide:
 * - rows are rendered in slices, one slice per turn of the loop across all streams, round robin:
 *   a turn is one slice plus whatever small requests have ready, and the exports together still
 *   use every turn nobody else needs;
 * - one batch read at a time across all streams, so at most one answer is being parsed.
 * apps/api/test/abuse-limits.e2e-spec.ts measures the result (docs/reliability.md).
 */

/** Rows rendered in one slice (~100 KB of JSON, a few milliseconds of work). */
export const SLICE_ROWS = 250;

const waiting: (() => void)[] = [];
let turnScheduled = false;

function runOneSlice(): void {
  // The slice runs as a microtask right after this callback, before the loop moves on.
  waiting.shift()?.();
  // setImmediate from inside the check phase runs at the next turn, after pending I/O.
  turnScheduled = waiting.length > 0;
  if (turnScheduled) setImmediate(runOneSlice);
}

/** Resolves at this stream's next turn to render a slice. */
export function sliceTurn(): Promise<void> {
  return new Promise((resolve) => {
    waiting.push(resolve);
    if (!turnScheduled) {
      turnScheduled = true;
      setImmediate(runOneSlice);
    }
  });
}

/** The read of the last batch asked for by any stream of the process; the next waits for it. */
let lastRead: Promise<unknown> = Promise.resolve();

/** Runs `read` (a batch query) after every batch read asked for before it, across all streams. */
export function readInTurn<R>(read: () => Promise<R>): Promise<R> {
  const result = lastRead.then(read);
  lastRead = result.catch(() => undefined);
  return result;
}
