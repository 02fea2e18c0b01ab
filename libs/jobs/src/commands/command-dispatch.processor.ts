import { Processor } from '@nestjs/bullmq';
import { Inject, Logger } from '@nestjs/common';
import { type Downlink, type JobPayloads, networkByKind, PermanentDownlinkError, QUEUES } from '@dts/domain';
import { CommandsRepository, type DispatchRow } from '@dts/persistence';
import { APP_CONFIG, type AppConfig, callNetwork, converse, outboundUrlProblem, TokenCryptoService } from '@dts/platform';
import { type Job, UnrecoverableError } from 'bullmq';
import { JobProcessor, PROCESSOR_OPTIONS } from '../job-processor';

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
      if (await this.commands.advance(command.uid, 'Scheduled', { networkId: queued.networkId })) return { status: 'Scheduled' };
      // Cancelled while the network was being called: what the network queued meanwhile must not
      // reach the device.
      await this.takeBack(command, queued.networkId);
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
    const network = networkByKind(c.adapter);
    if (network?.downlink?.via !== 'api' || !c.base_url || !c.api_key_encrypted) return;
    try {
      const outcome = await converse(
        { apiKey: this.crypto.decrypt(c.api_key_encrypted), allowPrivate: this.config.outboundAllowPrivate },
        network.downlink.queue.remove({ baseUrl: c.base_url, applicationId: c.application_id, webhookId: c.webhook_id }, c.eui, [networkId]),
      );
      await this.commands.afterQueueRemoval(c.device_id, c.network_ref, outcome);
      if (!outcome.removed.includes(networkId))
        this.logger.warn(`command ${c.uid} was cancelled during its hand-off, but the network kept it: ${JSON.stringify(outcome)}`);
    } catch (error) {
      this.logger.warn(`command ${c.uid} was cancelled during its hand-off; taking it back out of the network's queue failed: ${(error as Error).message}`);
    }
  }

  /** Hands the command to its network as the network's definition says; resolves with the network's id of it. */
  private async send(c: DispatchRow): Promise<{ networkId: string }> {
    const downlink: Downlink = { commandUid: c.uid, eui: c.eui, port: c.port, confirmed: c.confirmed, payload: new Uint8Array(c.payload) };
    const network = networkByKind(c.adapter);
    if (!network?.downlink) throw new PermanentDownlinkError(c.adapter === null ? 'the device has no network' : `network "${c.network}" takes no downlinks`);
    if (network.downlink.via === 'simulated') return { networkId: network.downlink.accept(downlink) };
    if (!c.base_url || !c.api_key_encrypted)
      throw new PermanentDownlinkError(`network "${c.network}" has no API address and key: configure your own with POST /user/network`);
    const problem = await outboundUrlProblem(c.base_url, this.config.outboundAllowPrivate);
    if (problem) throw new PermanentDownlinkError(`the network's base_url ${problem}`);
    const call = network.downlink.call({ baseUrl: c.base_url, applicationId: c.application_id, webhookId: c.webhook_id }, downlink);
    const credentials = { apiKey: this.crypto.decrypt(c.api_key_encrypted), allowPrivate: this.config.outboundAllowPrivate };
    return { networkId: call.networkId(await callNetwork(credentials, { method: 'POST', url: call.url, body: call.body })) };
  }
}
