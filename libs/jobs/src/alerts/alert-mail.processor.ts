import { Processor } from '@nestjs/bullmq';
import { Inject } from '@nestjs/common';
import { alertMail, type JobPayloads, QUEUES } from '@dts/domain';
import { type AlertMailDecision, AlertMailsRepository, AlertsRepository } from '@dts/persistence';
import { APP_CONFIG, type AppConfig } from '@dts/platform';
import { JobProcessor, PROCESSOR_OPTIONS } from '../job-processor';
import { MailTransport } from '../mail/mail-transport';
import { alertMailLimits } from './alert-mail-limits';

/**
 * Mails an alert raised or cleared to the address of its account (docs/api.md §19). The router
 * and the offline check decide most mails where they raise them and queue only those to send; a
 * mail not yet decided (its decision's transaction failed, or the sweep found it) is decided here
 * the same way: sent when the address is verified and the hour's alert mails to it and of the
 * account are not spent, else recorded skipped, or held for the hour's digest (AlertMailDigests).
 * The decisions and the counts live in the database, so they hold across every worker.
 */
@Processor(QUEUES.alertMail, PROCESSOR_OPTIONS)
export class AlertMailProcessor extends JobProcessor<'alert.mail'> {
  readonly job = 'alert.mail' as const;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly alerts: AlertsRepository,
    private readonly mails: AlertMailsRepository,
    private readonly transport: MailTransport,
  ) {
    super();
  }

  protected async handle({ alertUid, action }: JobPayloads['alert.mail']): Promise<{ outcome: AlertMailDecision['kind'] }> {
    const alert = await this.alerts.byUid(alertUid);
    // Gone with its device or account: nothing to tell anyone.
    if (!alert) return { outcome: 'none' };
    const decision = await this.mails.decide(alertUid, action, alertMailLimits(this.config), new Date());
    if (decision.kind !== 'send') return { outcome: decision.kind };
    const at = action === 'raised' ? alert.raised_at : (alert.cleared_at ?? new Date());
    await this.transport.send({ to: decision.to, ...alertMail(alert.message, action, at.toISOString()) });
    await this.mails.sent(alertUid, action);
    return { outcome: 'send' };
  }
}
