import { getQueueToken } from '@nestjs/bullmq';
import { Injectable } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { JOB_QUEUE, type JobName, type JobPayloads, QUEUES } from '@dts/domain';
import type { JobsOptions, Queue } from 'bullmq';

/** Retries with exponential backoff; finished jobs are kept a while for inspection, then trimmed. */
export const DEFAULT_JOB_OPTIONS: JobsOptions = {
  attempts: 5,
  backoff: { type: 'exponential', delay: 1000 },
  removeOnComplete: { count: 1000 },
  removeOnFail: { count: 5000 },
};

/** Jobs that need other than the defaults. */
const JOB_OPTIONS: Partial<Record<JobName, JobsOptions>> = {
  // Six attempts over about a minute, then the command is Failed; the id frees once it ran.
  'command.dispatch': { attempts: 6, backoff: { type: 'exponential', delay: 2_000 }, removeOnComplete: true, removeOnFail: true },
  // One waiting rebuild per device; the id frees once it ran so that later changes queue again.
  'cache.rebuild': { removeOnComplete: true, removeOnFail: true },
  // One waiting thumbnail per image (imageThumbnailJobId); a finished one frees the id.
  'image.thumbnail': { removeOnComplete: true, removeOnFail: true },
};

/** The one typed way to enqueue: the job name fixes both the queue and the payload type. */
@Injectable()
export class JobQueue {
  private readonly queues = new Map<string, Queue>();

  constructor(private readonly moduleRef: ModuleRef) {}

  async enqueue<J extends JobName>(job: J, payload: JobPayloads[J], options: JobsOptions = {}): Promise<string | undefined> {
    const added = await this.queue(JOB_QUEUE[job]).add(job, payload, { ...DEFAULT_JOB_OPTIONS, ...JOB_OPTIONS[job], ...options });
    return added.id;
  }

  /** One round trip for many jobs of one kind (BullMQ's addBulk). */
  async enqueueMany<J extends JobName>(job: J, payloads: JobPayloads[J][]): Promise<void> {
    if (payloads.length === 0) return;
    const opts = { ...DEFAULT_JOB_OPTIONS, ...JOB_OPTIONS[job] };
    await this.queue(JOB_QUEUE[job]).addBulk(payloads.map((data) => ({ name: job, data, opts })));
  }

  queue(name: string): Queue {
    let queue = this.queues.get(name);
    if (!queue) {
      queue = this.moduleRef.get<Queue>(getQueueToken(name), { strict: false });
      this.queues.set(name, queue);
    }
    return queue;
  }

  /** Waiting + delayed + active jobs per queue, for readiness and operators. */
  async depths(): Promise<Record<string, number>> {
    const out: Record<string, number> = {};
    for (const name of Object.values(QUEUES)) {
      const counts = await this.queue(name).getJobCounts('waiting', 'delayed', 'active', 'prioritized');
      out[name] = Object.values(counts).reduce((a, b) => a + b, 0);
    }
    return out;
  }
}
