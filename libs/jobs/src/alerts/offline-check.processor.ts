import { InjectQueue, Processor } from '@nestjs/bullmq';
import { Inject, type OnApplicationBootstrap } from '@nestjs/common';
import { alertMailJobId, alertMessages, QUEUES, toUnix } from '@dts/domain';
import { AlertsRepository, type DueWatch, OfflineWatchRepository, type WatchDecision } from '@dts/persistence';
import { APP_CONFIG, type AppConfig, JobQueue } from '@dts/platform';
import type { Queue } from 'bullmq';
import { EventRouter } from '../integrations/event-router';
import { alertMailLimits } from './alert-mail-limits';
import { JobProcessor, PROCESSOR_OPTIONS } from '../job-processor';

/** Due states decided per transaction. */
const DUE_BATCH = 500;
/** A mail still waiting this long after its alert has lost its job (or never got one). */
const MAIL_STUCK_SECONDS = 20;

/** A due state: silent if nothing was heard within the rule's minutes, else watched again from the last uplink. */
export function decideWatch(w: DueWatch): WatchDecision {
  const windowMs = w.minutes * 60_000;
  const last = w.ts_activity_last?.getTime() ?? null;
  if (last !== null && last + windowMs > w.now.getTime()) return { rearmAt: new Date(last + windowMs) };
  return {
    silent: {
      message: alertMessages.offline(w.label || w.eui, w.minutes),
      details: { minutes: w.minutes, last_uplink_unix: last === null ? null : toUnix(new Date(last)) },
    },
  };
}

/**
 * "No uplink for N minutes": reads only the offline rule states that came due (an index on their
 * due time), never every device. An uplink moves a device's due time forward (the router); a state
 * found due is re-armed from the device's last uplink or becomes an alert. Also re-enqueues alert
 * mails whose job was lost, as command.requeue does for commands.
 */
@Processor(QUEUES.alertsOfflineCheck, PROCESSOR_OPTIONS)
export class OfflineCheckProcessor extends JobProcessor<'alerts.offline-check'> implements OnApplicationBootstrap {
  readonly job = 'alerts.offline-check' as const;

  constructor(
    private readonly watches: OfflineWatchRepository,
    private readonly alerts: AlertsRepository,
    private readonly router: EventRouter,
    private readonly jobs: JobQueue,
    @InjectQueue(QUEUES.alertsOfflineCheck) private readonly queue: Queue,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    super();
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.queue.upsertJobScheduler('alerts-offline-check', { every: this.config.integrations.offlineCheckMs }, { name: this.job, data: {} });
  }

  protected async handle(): Promise<{ decided: number; mails: number }> {
    let decided = 0;
    for (;;) {
      const { due, raised } = await this.watches.processDue(DUE_BATCH, decideWatch, alertMailLimits(this.config));
      decided += due;
      if (raised.length > 0) {
        await this.router.announce(raised);
        this.router.wake();
      }
      if (due < DUE_BATCH) break;
    }
    const waiting = await this.alerts.mailsWaiting(MAIL_STUCK_SECONDS, 500);
    for (const m of waiting) await this.jobs.enqueue('alert.mail', { alertUid: m.uid, action: m.action }, { jobId: alertMailJobId(m.uid, m.action) });
    return { decided, mails: waiting.length };
  }
}
