import { Processor } from '@nestjs/bullmq';
import { Logger } from '@nestjs/common';
import { type JobPayloads, PermanentDownlinkError, QUEUES } from '@dts/domain';
import { CommandsRepository, type DispatchRow } from '@dts/persistence';
import { type Job, UnrecoverableError } from 'bullmq';
import { JobProcessor, PROCESSOR_OPTIONS } from '../job-processor';
import { NetworkClient } from './network-client';

/**
 * Hands a Created command to its device's network and marks it Scheduled. At least once to the
 * network (a crash after the hand-off retries it), recorded once (only a Created command moves).
 * Transient failures retry with the job's backoff; a permanent one, or the last attempt, marks the
 * command Failed with the reason.
 */
@Processor(QUEUES.commandDispatch, PROCESSOR_OPTIONS)
export class CommandDispatchProcessor extends JobProcessor<'command.dispatch'> {
  readonly job = 'command.dispatch' as const;
  private readonly logger = new Logger(CommandDispatchProcessor.name);

  constructor(
    private readonly commands: CommandsRepository,
    private readonly network: NetworkClient,
  ) {
    super();
  }

  protected async handle(payload: JobPayloads['command.dispatch'], job: Job): Promise<{ status: string }> {
    const command = await this.commands.forDispatch(payload.commandUid);
    if (!command || command.status !== 'Created') return { status: command?.status ?? 'gone' };
    try {
      const downlink = {
        commandUid: command.uid,
        eui: command.eui,
        port: command.port,
        confirmed: command.confirmed,
        payload: new Uint8Array(command.payload),
      };
      const networkId = await this.network.send(command, downlink);
      if (await this.commands.advance(command.uid, 'Scheduled', { networkId })) return { status: 'Scheduled' };
      // Cancelled while the network was being called: what the network queued meanwhile must not
      // reach the device.
      await this.takeBack(command, networkId);
      return { status: 'Cancelled' };
    } catch (error) {
      const reason = (error as Error).message;
      const last = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
      if (error instanceof PermanentDownlinkError || last) {
        await this.commands.advance(command.uid, 'Failed', { reason });
        this.logger.warn(`command ${command.uid} failed: ${reason}`);
        throw new UnrecoverableError(reason);
      }
      throw error;
    }
  }

  /**
   * Takes a downlink back out of its network's queue (a command cancelled during its hand-off), once
   * and best effort: a failure is logged, and the command stays Cancelled in the record.
   */
  private async takeBack(c: DispatchRow, networkId: string): Promise<void> {
    // The simulated network's queue is the record itself: Cancelled there is taken back.
    if (this.network.networkOf(c)?.downlink?.via !== 'api') return;
    try {
      const outcome = await this.network.remove(c, c.eui, [networkId]);
      await this.commands.afterQueueRemoval(c.device_id, c.network_ref, outcome);
      if (!outcome.removed.includes(networkId))
        this.logger.warn(`command ${c.uid} was cancelled during its hand-off, but the network kept it: ${JSON.stringify(outcome)}`);
    } catch (error) {
      this.logger.warn(`command ${c.uid} was cancelled during its hand-off; taking it back out of the network's queue failed: ${(error as Error).message}`);
    }
  }
}
