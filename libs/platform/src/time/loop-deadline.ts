/**
 * A timer this much late was held up by the process itself, not by what it waits for: the event
 * loop stood still (a long garbage collection, a starved machine, a synchronous stretch of work).
 * Timers are a few milliseconds late on a busy loop; this is well past that.
 */
export const LOOP_STALL_MS = 250;

/** How late a timer that should have run at `dueAt` (performance.now()) is, as a stall of the loop: 0 when it is on time. */
export function loopStall(dueAt: number, now = performance.now()): number {
  const late = now - dueAt;
  return late > LOOP_STALL_MS ? late : 0;
}

export interface LoopDeadline {
  /** Stops the deadline; `onExpire` is not called after this. */
  clear(): void;
}

/**
 * Calls `onExpire` once `ms` have passed while the event loop was turning. Node runs due timers
 * before it reads sockets, so after the loop stood still a plain setTimeout fires ahead of an
 * answer that arrived in time and is waiting to be read: a 5 s read timeout cut every history
 * stream in flight after one 5 s stall (tests/CI, seen as "aborted" reads). A timer that fires
 * late by a stall re-arms for as long as it was late, so that what arrived meanwhile is read
 * first; one that fires on time expires.
 */
export function loopDeadline(ms: number, onExpire: () => void): LoopDeadline {
  let timer: NodeJS.Timeout;
  const arm = (wait: number) => {
    const dueAt = performance.now() + wait;
    timer = setTimeout(() => {
      const stall = loopStall(dueAt);
      if (stall > 0) arm(stall);
      else onExpire();
    }, wait);
  };
  arm(ms);
  return { clear: () => clearTimeout(timer) };
}
