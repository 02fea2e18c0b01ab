import { Inject, Injectable, Logger } from '@nestjs/common';
import { alertMailJobId, type PreparedFence, prepareFence } from '@dts/domain';
import { type AlertChange, EventRoutingRepository, LiveBus } from '@dts/persistence';
import { APP_CONFIG, type AppConfig, JobQueue } from '@dts/platform';
import { alertMailLimits } from '../alerts/alert-mail-limits';
import { errorText } from './attempt';
import { decideRouting } from './routing-decisions';

/** Events routed per transaction. */
const ROUTE_BATCH = 1_000;

/**
 * The least time between the starts of two routing passes. Every stored uplink's notice wakes the
 * router, and most passes find nothing (an uplink nobody follows): woken per uplink, that look cost
 * a third of a single-uplink webhook's CPU (docs/benchmarks.md, figure 2). Wake-ups within the gap
 * share one pass at its end: a few milliseconds on the way to a delivery, a bounded cost per second
 * whatever the rate of uplinks.
 */
export const ROUTE_GAP_MS = 20;

/**
 * Routes the outbox: one batch per transaction until none is left, one router at a time across the
 * workers (the repository's advisory lock). After each batch the dispatcher is woken for the
 * deliveries it queued, and the alerts it raised or cleared are announced to the live feeds.
 */
@Injectable()
export class EventRouter {
  private readonly logger = new Logger('EventRouter');
  /** Prepared fences, and the revision each was prepared from: an edited fence is read and prepared again. */
  private readonly fences = new Map<number, PreparedFence>();
  private readonly fenceRevisions = new Map<number, number>();
  private running: Promise<void> | null = null;
  private again = false;
  /** When the last pass started (performance.now()), and the pass waiting for the gap to end. */
  private lastStart = -Infinity;
  private pending: NodeJS.Timeout | null = null;
  private stopped = false;
  onDeliveries: () => void = () => undefined;

  constructor(
    private readonly routing: EventRoutingRepository,
    private readonly bus: LiveBus,
    private readonly jobs: JobQueue,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  wake(): void {
    if (this.stopped || this.pending) return;
    if (this.running) {
      this.again = true;
      return;
    }
    const wait = this.lastStart + ROUTE_GAP_MS - performance.now();
    if (wait > 0) {
      this.pending = setTimeout(() => {
        this.pending = null;
        this.wake();
      }, wait);
      return;
    }
    this.lastStart = performance.now();
    this.running = this.run().finally(() => {
      this.running = null;
      if (this.again) this.wake();
    });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.pending) clearTimeout(this.pending);
    await this.running;
  }

  private async run(): Promise<void> {
    this.again = false;
    try {
      for (;;) {
        const routed = await this.routing.routeBatch(
          ROUTE_BATCH,
          this.fenceRevisions,
          (batch) => {
            for (const [uid, fence] of batch.fences) {
              this.fences.set(uid, prepareFence(fence.geometry));
              this.fenceRevisions.set(uid, fence.revision);
            }
            return decideRouting(batch, this.fences);
          },
          alertMailLimits(this.config),
        );
        if (routed.deliveries > 0) this.onDeliveries();
        if (routed.alerts.length > 0) await this.announce(routed.alerts);
        if (routed.events < ROUTE_BATCH || this.stopped) return;
      }
    } catch (error) {
      this.logger.warn(`routing events failed (retried at the next wake-up): ${errorText(error)}`);
    }
  }

  /**
   * Raised and cleared alerts, after the commit: to every instance's live feeds, and the mails
   * their transaction decided to send to the queue (a mail whose job is lost here is enqueued again
   * by the offline check).
   */
  async announce(alerts: AlertChange[]): Promise<void> {
    await this.bus.publish(alerts.map((a) => ({ kind: 'alert', device: a.device_id, alert: a.alert_id })));
    for (const a of alerts) {
      if (!a.mail) continue;
      await this.jobs
        .enqueue('alert.mail', { alertUid: a.alert_id, action: a.action }, { jobId: alertMailJobId(a.alert_id, a.action) })
        .catch((error: unknown) => this.logger.warn(`alert mail not queued (the offline check will): ${errorText(error)}`));
    }
  }
}
