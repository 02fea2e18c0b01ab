import { WorkerHost } from '@nestjs/bullmq';
import { type BeforeApplicationShutdown, Inject, Optional } from '@nestjs/common';
import { type JobName, type JobPayloads } from '@dts/domain';
import { MetricsService } from '@dts/platform';
import { type Job, UnrecoverableError } from 'bullmq';

/**
 * Base of every processor: one job name per processor, a typed payload, and a job of another name
 * failed at once rather than retried (it can never succeed here).
 */
export abstract class JobProcessor<J extends JobName> extends WorkerHost implements BeforeApplicationShutdown {
  abstract readonly job: J;

  // A property, so that the processors' constructors need not pass it on.
  @Optional() @Inject(MetricsService) private readonly metrics?: MetricsService;

  protected abstract handle(payload: JobPayloads[J], job: Job<JobPayloads[J]>): Promise<unknown>;

  /**
   * The worker stops taking jobs and finishes those it holds before any pool closes. Nest closes the
   * database pools and BullMQ's workers alike in onApplicationShutdown, in no set order: a job whose
   * pool had closed under it never settled, and the worker's close — the whole stop — waited for it
   * for ever (seen with a test instance stopped right after a sign-up, its mail job in flight).
   * BullMQ's own close later returns the same promise.
   */
  async beforeApplicationShutdown(): Promise<void> {
    let worker: WorkerHost['worker'];
    try {
      worker = this.worker;
    } catch {
      return; // never started (its module was closed before it was initialised)
    }
    await worker.close();
  }

  async process(job: Job): Promise<unknown> {
    try {
      if (job.name !== this.job) throw new UnrecoverableError(`no processor for job "${job.name}" on queue "${job.queueName}"`);
      const result = await this.handle(job.data as JobPayloads[J], job as Job<JobPayloads[J]>);
      this.metrics?.jobOutcome(job.name, 'completed');
      return result;
    } catch (error) {
      this.metrics?.jobOutcome(job.name, willRetry(job, error) ? 'retried' : 'failed');
      throw error;
    }
  }
}

/** BullMQ's own rule (Job.shouldRetryJob): attempts left and the error not unrecoverable. */
function willRetry(job: Job, error: unknown): boolean {
  const unrecoverable = error instanceof UnrecoverableError || (error instanceof Error && error.name === 'UnrecoverableError');
  return !unrecoverable && job.attemptsMade + 1 < (job.opts.attempts ?? 1);
}

/** Worker options shared by every processor. */
export const PROCESSOR_OPTIONS = {
  // Woken by NOTIFY (PostgreSQL) or a blocking pop (Redis); this only bounds a missed wake-up.
  drainDelay: 1,
  // A worker that dies mid-job loses its lock within 10 s and the job is taken up again: its
  // effects must therefore be idempotent (every processor's are).
  lockDuration: 10_000,
  stalledInterval: 5_000,
} as const;
