import type { AttemptResult, DeliveriesRepository } from '@dts/persistence';

/**
 * The least time between the starts of two writes of one lane. Writing as soon as the previous
 * write ended made a commit (and its WAL flush) for every one or two events while a lane streamed;
 * gathering a few milliseconds' worth makes it one commit per dozens.
 */
export const RECORD_EVERY_MS = 25;

/**
 * Records a lane's successful deliveries as they happen, without a round trip per delivery in the
 * sending loop: each success joins the next write, and the writes of a lane start at most every
 * RECORD_EVERY_MS (a group commit per lane); `drain` writes what waits at once. A worker that dies
 * has left unrecorded only what was answered during its last RECORD_EVERY_MS and last write —
 * those are sent again, as at-least-once allows, and recorded once.
 */
export class SuccessRecorder {
  private waiting: AttemptResult[] = [];
  private writing: Promise<void> | null = null;
  private failure: unknown = null;
  /** Ends the pause between two writes early: someone drains. */
  private hurry: (() => void) | null = null;
  private draining = false;

  constructor(
    private readonly deliveries: Pick<DeliveriesRepository, 'delivered'>,
    /** Called after each write with how many it recorded. */
    private readonly recorded: (n: number) => Promise<void>,
  ) {}

  add(result: AttemptResult): void {
    // After a failed write nothing more is recorded: the lane's unrecorded deliveries are sent again, in order.
    if (this.failure) return;
    this.waiting.push(result);
    // Cleared in a callback, never inside write(): a write that ended at once would otherwise clear
    // it before this assignment, and leave drain() awaiting a settled promise for ever.
    this.writing ??= this.write().finally(() => (this.writing = null));
  }

  /** Waits until everything added is recorded; throws what a write threw. */
  async drain(): Promise<void> {
    this.draining = true;
    try {
      while (this.writing) {
        this.hurry?.();
        await this.writing;
      }
    } finally {
      this.draining = false;
    }
    if (this.failure) throw this.failure;
  }

  private async write(): Promise<void> {
    try {
      while (this.waiting.length > 0 && !this.failure) {
        const started = performance.now();
        const batch = this.waiting;
        this.waiting = [];
        await this.deliveries.delivered(batch);
        await this.recorded(batch.length);
        const rest = RECORD_EVERY_MS - (performance.now() - started);
        // Successes that come meanwhile join the next write; none may come, and the loop ends.
        if (rest > 0 && !this.draining) await this.pause(rest);
      }
    } catch (error) {
      this.failure = error;
    }
  }

  /** One timer per write, not per delivery; `drain` cuts it short. */
  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => this.hurry?.(), ms);
      this.hurry = () => {
        clearTimeout(timer);
        this.hurry = null;
        resolve();
      };
    });
  }
}
