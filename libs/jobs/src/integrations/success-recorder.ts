import type { AttemptResult, DeliveriesRepository } from '@dts/persistence';

/**
 * Records a lane's successful deliveries as they happen, without a round trip per delivery in the
 * sending loop: each success joins the next write, and a write starts as soon as the previous one
 * ends (a group commit per lane). A worker that dies has left unrecorded only what was answered
 * during the last write — those are sent again, as at-least-once allows, and recorded once.
 */
export class SuccessRecorder {
  private waiting: AttemptResult[] = [];
  private writing: Promise<void> | null = null;
  private failure: unknown = null;

  constructor(
    private readonly deliveries: Pick<DeliveriesRepository, 'delivered'>,
    /** Called after each write with how many it recorded. */
    private readonly recorded: (n: number) => Promise<void>,
  ) {}

  add(result: AttemptResult): void {
    this.waiting.push(result);
    this.writing ??= this.write();
  }

  /** Waits until everything added is recorded; throws what a write threw. */
  async drain(): Promise<void> {
    while (this.writing) await this.writing;
    if (this.failure) throw this.failure;
  }

  private async write(): Promise<void> {
    try {
      while (this.waiting.length > 0 && !this.failure) {
        const batch = this.waiting;
        this.waiting = [];
        await this.deliveries.delivered(batch);
        await this.recorded(batch.length);
      }
    } catch (error) {
      this.failure = error;
    } finally {
      this.writing = null;
    }
  }
}
