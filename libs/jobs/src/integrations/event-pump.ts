import { Injectable, Logger, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { LiveBus } from '@dts/persistence';
import { DeliveryDispatcher } from './delivery-dispatcher';
import { EventRouter } from './event-router';
import { errorText } from './attempt';

/** The safety net under the wake-ups: every worker routes and dispatches at least this often. */
export const SWEEP_MS = 1_000;

/**
 * Keeps events flowing in every worker process: an uplink or command notice on the live bus (from
 * any instance) wakes the router at once; the router wakes the dispatcher when it queued
 * deliveries; a deleted or disabled integration's notice makes the dispatcher abandon its attempts
 * in flight; and a sweep every second catches what no notice announced (images, a notice lost while
 * the bus reconnected, a lane whose backoff ended, a lease left by a dead worker, attempts held for
 * an integration that is gone).
 */
@Injectable()
export class EventPump implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('EventPump');
  private timer: NodeJS.Timeout | null = null;
  private unlisten: (() => void) | null = null;

  constructor(
    private readonly router: EventRouter,
    private readonly dispatcher: DeliveryDispatcher,
    private readonly bus: LiveBus,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.router.onDeliveries = () => this.dispatcher.wake();
    try {
      this.unlisten = await this.bus.listen((signal) => {
        if (signal.kind === 'uplinks' || signal.kind === 'command' || signal.kind === 'resync') this.router.wake();
        if (signal.kind === 'integration') this.dispatcher.abandon(signal.integration, 'the integration was deleted or disabled');
        if (signal.kind === 'resync') void this.dispatcher.check();
      });
    } catch (error) {
      // The sweep still routes everything, a second later.
      this.logger.warn(`no live bus for wake-ups: ${errorText(error)}`);
    }
    this.timer = setInterval(() => {
      this.router.wake();
      this.dispatcher.wake();
      void this.dispatcher.check();
    }, SWEEP_MS);
    this.router.wake();
    this.dispatcher.wake();
  }

  // Before the pools close (their onApplicationShutdown): the lanes in flight record their outcome.
  async beforeApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.unlisten?.();
    await this.router.stop();
    await this.dispatcher.stop();
  }
}
