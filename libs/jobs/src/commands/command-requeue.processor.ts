import { InjectQueue, Processor } from '@nestjs/bullmq';
import type { OnApplicationBootstrap } from '@nestjs/common';
import { commandDispatchJobId, QUEUES } from '@dts/domain';
import { CommandsRepository } from '@dts/persistence';
import { JobQueue } from '@dts/platform';
import type { Queue } from 'bullmq';
import { JobProcessor, PROCESSOR_OPTIONS } from '../job-processor';

export const REQUEUE_EVERY_MS = 30_000;
/** A command Created longer than this has lost its dispatch job (or never got one). */
export const STUCK_AFTER_SECONDS = 20;

/**
 * The other half of "a command never exists without its job": the api stores the command, then
 * enqueues; if it dies in between, this finds the command and enqueues it. Enqueueing a command
 * whose job still waits is a no-op (one job id per command).
 */
@Processor(QUEUES.commandRequeue, PROCESSOR_OPTIONS)
export class CommandRequeueProcessor extends JobProcessor<'command.requeue'> implements OnApplicationBootstrap {
  readonly job = 'command.requeue' as const;

  constructor(
    private readonly commands: CommandsRepository,
    private readonly jobs: JobQueue,
    @InjectQueue(QUEUES.commandRequeue) private readonly queue: Queue,
  ) {
    super();
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.queue.upsertJobScheduler('command-requeue', { every: REQUEUE_EVERY_MS }, { name: this.job, data: {} });
  }

  protected async handle(): Promise<{ requeued: number }> {
    const stuck = await this.commands.stuck(STUCK_AFTER_SECONDS, 500);
    for (const uid of stuck) await this.jobs.enqueue('command.dispatch', { commandUid: uid }, { jobId: commandDispatchJobId(uid) });
    return { requeued: stuck.length };
  }
}
