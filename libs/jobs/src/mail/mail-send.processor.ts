import { Processor } from '@nestjs/bullmq';
import { type JobPayloads, QUEUES } from '@dts/domain';
import { JobProcessor, PROCESSOR_OPTIONS } from '../job-processor';
import { MailTransport } from './mail-transport';

/** Delivers e-mails; SMTP failures are retried with the queue's backoff. */
@Processor(QUEUES.mail, PROCESSOR_OPTIONS)
export class MailSendProcessor extends JobProcessor<'mail.send'> {
  readonly job = 'mail.send' as const;

  constructor(private readonly transport: MailTransport) {
    super();
  }

  protected handle(payload: JobPayloads['mail.send']): Promise<void> {
    return this.transport.send(payload);
  }
}
