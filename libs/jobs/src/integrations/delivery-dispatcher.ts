import { Inject, Injectable, Logger } from '@nestjs/common';
import { retryDelayMs, retryWindowOver } from '@dts/domain';
import { type ClaimedLane, DeliveriesRepository, IntegrationsRepository, type IntegrationTarget, type LaneOutcome, LiveBus } from '@dts/persistence';
import { APP_CONFIG, type AppConfig } from '@dts/platform';
import { errorText } from './attempt';
import { IntegrationSender } from './integration-sender';
import { SuccessRecorder } from './success-recorder';

/** Deliveries read from a lane at a time. */
const LANE_BATCH = 200;
/** A lane whose work fails unexpectedly (the database) is due again after this. */
const LANE_ERROR_RETRY_MS = 5_000;

/**
 * Sends what the router queued. Up to INTEGRATION_CONCURRENCY lanes (integration × device) at once
 * per worker; inside a lane, one delivery at a time in id order, so a device's events arrive in
 * order, and the first failure stops the lane until its backoff ends (other devices go on).
 *
 * The lanes are shared per account, in this process: at most INTEGRATION_ACCOUNT_CONCURRENCY of one
 * account's lanes at once, however many devices and integrations it has, and the accounts holding
 * the fewest are served first (the claim, `DeliveriesRepository.claimLanes`). An account whose
 * receivers hang holds its share until their attempts time out, never the lanes the others need.
 * Each worker keeps the bound for itself, so with N workers an account holds at most N shares of N
 * workers' lanes: the same part of the whole (docs/architecture.md, "Lanes, leases and fairness").
 *
 * A lane is held by a lease (`next_at` and `held_until` moved ahead): a worker that dies
 * mid-delivery loses it when the lease ends and another worker sends that delivery again (at least
 * once; the receiver drops the duplicate by its `webhook-id`), and only a recorded outcome moves a
 * delivery on, so each is recorded once. Attempts to an integration deleted or disabled are
 * abandoned at once (a notice on the live bus, and a check of what is held every sweep), not
 * recorded: the lane and the account's share are free again without waiting for the timeout.
 */
@Injectable()
export class DeliveryDispatcher {
  private readonly logger = new Logger('DeliveryDispatcher');
  private inFlight = 0;
  private filling = false;
  private refill = false;
  private stopped = false;
  private readonly lanes = new Set<Promise<void>>();
  /** The lanes in flight, each with what abandons its attempts. */
  private readonly held = new Set<{ lane: ClaimedLane; abandon: AbortController }>();
  /** Lanes in flight by account: what the claim counts against each account's share. */
  private readonly holds = new Map<number, number>();
  private checking = false;
  private readonly lastHealthy = new Map<number, number>();

  constructor(
    private readonly deliveries: DeliveriesRepository,
    private readonly integrations: IntegrationsRepository,
    private readonly sender: IntegrationSender,
    private readonly bus: LiveBus,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** How long a claimed lane is ours: the attempts of a batch stop well before it ends. */
  private get leaseMs(): number {
    return Math.max(5_000, this.config.integrations.timeoutMs * 3);
  }

  /** Claims due lanes while slots are free. Safe to call at any time, as often as wanted. */
  wake(): void {
    void this.fill();
  }

  /**
   * Abandons the attempts in flight to the integration (deleted or disabled): they end now, unrecorded,
   * and free their lanes.
   */
  abandon(integration: number, reason: string): void {
    for (const h of this.held) if (h.lane.integration_id === integration) h.abandon.abort(new Error(reason));
  }

  /**
   * The sweep's safety net under the notices (one lost while the bus reconnected, an account deleted
   * with its integrations): abandons what is held for integrations no longer there or enabled.
   */
  async check(): Promise<void> {
    if (this.checking || this.held.size === 0) return;
    this.checking = true;
    try {
      const uids = [...new Set([...this.held].map((h) => h.lane.integration_id))];
      const live = await this.integrations.enabledAmong(uids);
      for (const uid of uids) if (!live.has(uid)) this.abandon(uid, 'the integration was deleted or disabled');
    } catch (error) {
      this.logger.warn(`checking the integrations in flight failed: ${errorText(error)}`);
    } finally {
      this.checking = false;
    }
  }

  /** Stops claiming, and waits for the lanes in flight. */
  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.allSettled([...this.lanes]);
  }

  private async fill(): Promise<void> {
    if (this.filling) {
      this.refill = true;
      return;
    }
    this.filling = true;
    try {
      do {
        this.refill = false;
        const free = this.config.integrations.concurrency - this.inFlight;
        if (free <= 0 || this.stopped) break;
        const claimed = await this.deliveries.claimLanes(free, this.leaseMs, { perAccount: this.config.integrations.accountConcurrency, holds: this.holds });
        for (const lane of claimed) this.start(lane);
        if (claimed.length === free) this.refill = true;
      } while (this.refill && !this.stopped);
    } catch (error) {
      this.logger.warn(`claiming lanes failed: ${errorText(error)}`);
    } finally {
      this.filling = false;
    }
  }

  private start(lane: ClaimedLane): void {
    this.inFlight++;
    this.holds.set(lane.account_id, (this.holds.get(lane.account_id) ?? 0) + 1);
    const entry = { lane, abandon: new AbortController() };
    this.held.add(entry);
    const run = this.lane(lane, entry.abandon.signal).finally(() => {
      this.inFlight--;
      const left = (this.holds.get(lane.account_id) ?? 1) - 1;
      if (left > 0) this.holds.set(lane.account_id, left);
      else this.holds.delete(lane.account_id);
      this.held.delete(entry);
      this.lanes.delete(run);
      if (!this.stopped) this.wake();
    });
    this.lanes.add(run);
  }

  private async lane(lane: ClaimedLane, abandoned: AbortSignal): Promise<void> {
    let outcome: LaneOutcome = { retryAt: null, more: false };
    try {
      outcome = await this.sendLane(lane, abandoned);
    } catch (error) {
      this.logger.warn(`lane ${lane.integration_id}/${lane.device_id}: ${errorText(error)}`);
      outcome = { retryAt: new Date(Date.now() + LANE_ERROR_RETRY_MS), more: false };
    }
    await this.deliveries.release(lane, outcome).catch((error: unknown) => this.logger.warn(`releasing a lane failed: ${errorText(error)}`));
  }

  private async sendLane(lane: ClaimedLane, abandoned: AbortSignal): Promise<LaneOutcome> {
    const target = await this.integrations.target(lane.integration_id);
    // Deleted (its deliveries went with it) or disabled: the lane waits until it is enabled again.
    if (!target || !target.enabled) return { retryAt: null, more: false };
    const batch = await this.deliveries.pending(lane, LANE_BATCH);
    // The redeliveries the release must answer are those asked for after this read.
    if (batch[0]) lane.redelivered = batch[0].lane_redelivered;
    const send = this.sender.forTarget(target);
    const deadline = Date.now() + this.leaseMs / 2;
    const done = new SuccessRecorder(this.deliveries, () => this.healthy(target));
    let sent = 0;
    try {
      for (const delivery of batch) {
        // Abandoned: the integration is gone or disabled, and enabling it again makes the lane due.
        if (abandoned.aborted) return { retryAt: null, more: false };
        if (Date.now() > deadline || this.stopped) return { retryAt: null, more: true };
        const result = await send(delivery, abandoned);
        sent++;
        if (result.ok) {
          done.add({ id: delivery.id, status: result.status, latencyMs: result.latencyMs, error: null });
          continue;
        }
        // Not the receiver's failure: nothing to record, no backoff, no step towards disabling it.
        if (abandoned.aborted) return { retryAt: null, more: false };
        await done.drain();
        const now = Date.now();
        const giveUp = retryWindowOver(delivery.created_at.getTime(), now, this.config.integrations.retryWindowMs);
        const retryAt = giveUp ? null : new Date(now + retryDelayMs(delivery.attempts + 1));
        const recorded = await this.deliveries.attemptFailed(
          { id: delivery.id, status: result.status, latencyMs: result.latencyMs, error: result.error },
          retryAt,
          delivery.redelivered,
        );
        const disabled = await this.integrations.failed(target.uid, result.error ?? 'failed', this.config.integrations.disableAfterMs, result.gone);
        if (disabled) {
          this.logger.warn(`integration ${target.uid} disabled: ${result.error}`);
          // The other lanes of it, here and in other workers, stop at once too.
          await this.bus.publish([{ kind: 'integration', integration: target.uid }]);
          return { retryAt: null, more: false };
        }
        // Redelivery asked for while this attempt was in flight: the delivery is due again now, in its turn.
        if (recorded.redelivered) return { retryAt: null, more: true };
        // Given up: the lane goes on with the device's next event; else it waits for the retry.
        if (!retryAt) continue;
        return { retryAt, more: false };
      }
    } finally {
      await done.drain();
    }
    return { retryAt: null, more: sent === LANE_BATCH };
  }

  /** The integration's health is written on a change, or once a minute per worker: not per delivery. */
  private async healthy(target: IntegrationTarget): Promise<void> {
    const last = this.lastHealthy.get(target.uid) ?? 0;
    if (target.failing_since !== null || Date.now() - last > 60_000) {
      this.lastHealthy.set(target.uid, Date.now());
      await this.integrations.succeeded(target.uid);
      target.failing_since = null;
    }
  }
}
