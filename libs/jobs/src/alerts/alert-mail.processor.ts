import { Processor } from '@nestjs/bullmq';
import { alertMail, type JobPayloads, QUEUES } from '@dts/domain';
import { AlertsRepository } from '@dts/persistence';
import { UnrecoverableError } from 'bullmq';
import { JobProcessor, PROCESSOR_OPTIONS } from '../job-processor';
import { MailTransport } from '../mail/mail-transport';

/** Mails an alert raised or cleared to the address of its account, through the service's mail transport. */
@Processor(QUEUES.alertMail, PROCESSOR_OPTIONS)
export class AlertMailProcessor extends JobProcessor<'alert.mail'> {
  readonly job = 'alert.mail' as const;

  constructor(
    private readonly alerts: AlertsRepository,
    private readonly transport: MailTransport,
  ) {
    super();
  }

  protected async handle({ alertUid, action }: JobPayloads['alert.mail']): Promise<void> {
    const alert = await this.alerts.byUid(alertUid);
    // Gone with its device or account: nothing to tell anyone.
    if (!alert) return;
    const to = await this.alerts.accountEmail(alert.account_id);
    if (!to) throw new UnrecoverableError('the account has no e-mail');
    const at = action === 'raised' ? alert.raised_at : (alert.cleared_at ?? new Date());
    await this.transport.send({ to, ...alertMail(alert.message, action, at.toISOString()) });
    await this.alerts.markMailed(alertUid, action);
  }
}
