import { commandDispatchJobId, QUEUES } from '@dts/domain';
import { getQueueToken } from '@nestjs/bullmq';
import type { Queue } from 'bullmq';
import { eventually } from '@dts/platform';
import type { TestService } from './harness';

/**
 * Waits until a command's dispatch job has ended: the job is removed once it completed or failed for
 * good (JOB_OPTIONS in @dts/platform), so from then on no attempt of it can reach a network and a
 * count of the network's hits is final.
 */
export async function commandDispatchEnded(svc: TestService, uid: number): Promise<void> {
  const queue = svc.app.get<Queue>(getQueueToken(QUEUES.commandDispatch));
  await eventually(async () => (await queue.getJob(commandDispatchJobId(uid))) === undefined, { what: `the dispatch job of command ${uid} to end` });
}
