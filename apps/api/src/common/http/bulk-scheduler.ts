/*
 * Bulk reads (history exports of up to 100,000 rows) share one event loop with every other request
 * the process serves, and would take all of it: rendering a database batch of 2,000 rows holds the
 * loop for about 20 ms. A small request needs several turns of the loop (authentication,
 * rate limit, its query, its answer) and waited behind every export at each of them: with four
 * 100,000-row exports streaming, GET /user took 654 ms at the median and 2.4 s at p99.
 *
 * So rows are rendered in slices, and the slices of every stream in the process take turns: one
 * slice per turn of the loop, round robin. A turn is then one slice plus whatever small requests
 * have ready, and the exports together still use every turn nobody else needs. (Smaller database
 * batches and one batch read at a time across streams were tried too: no difference beyond the
 * noise of the machine.) apps/api/test/abuse-limits.e2e-spec.ts measures it (docs/reliability.md).
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
