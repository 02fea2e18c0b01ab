import { Processor } from '@nestjs/bullmq';
import { Inject, Logger } from '@nestjs/common';
import { type JobPayloads, QUEUES } from '@dts/domain';
import { CommandsRepository, type DispatchRow } from '@dts/persistence';
import { APP_CONFIG, type AppConfig, outboundUrlProblem, TokenCryptoService } from '@dts/platform';
import { type Job, UnrecoverableError } from 'bullmq';
import { JobProcessor, PROCESSOR_OPTIONS } from '../job-processor';
import { type DownlinkRequest, PermanentDownlinkError, type Queued, sendChirpstack, sendSimulated, sendTheThingsStack } from './downlink-adapters';

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
    private readonly crypto: TokenCryptoService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    super();
  }

  protected async handle(payload: JobPayloads['command.dispatch'], job: Job): Promise<{ status: string }> {
    const command = await this.commands.forDispatch(payload.commandUid);
    if (!command || command.status !== 'Created') return { status: command?.status ?? 'gone' };
    try {
      const queued = await this.send(command);
      await this.commands.advance(command.uid, 'Scheduled', { networkId: queued.networkId });
      return { status: 'Scheduled' };
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

  private async send(c: DispatchRow): Promise<Queued> {
    const request: DownlinkRequest = { commandUid: c.uid, eui: c.eui, port: c.port, confirmed: c.confirmed, payload: new Uint8Array(c.payload) };
    switch (c.adapter) {
      case 'simulated':
        return sendSimulated(request);
      case 'chirpstack':
      case 'ttn': {
        if (!c.base_url || !c.api_key_encrypted) throw new PermanentDownlinkError(`network "${c.network}" has no API address and key: configure your own with POST /user/network`);
        const problem = await outboundUrlProblem(c.base_url, this.config.outboundAllowPrivate);
        if (problem) throw new PermanentDownlinkError(`the network's base_url ${problem}`);
        const target = { baseUrl: c.base_url, apiKey: this.crypto.decrypt(c.api_key_encrypted), applicationId: c.application_id, webhookId: c.webhook_id, allowPrivate: this.config.outboundAllowPrivate };
        return c.adapter === 'chirpstack' ? sendChirpstack(target, request) : sendTheThingsStack(target, request);
      }
      case 'rest':
      case null:
        throw new PermanentDownlinkError(c.adapter === null ? 'the device has no network' : `network "${c.network}" takes no downlinks`);
    }
  }
}
