import type { EventRoutingRepository, LiveBus } from '@dts/persistence';
import type { AppConfig, JobQueue } from '@dts/platform';
import { EventRouter, ROUTE_GAP_MS } from './event-router';

/** A router over a repository that counts its passes and finds nothing to route. */
function router() {
  const passes: number[] = [];
  const routing = {
    routeBatch: async () => {
      passes.push(Date.now());
      return { events: 0, deliveries: 0, alerts: [] };
    },
  } as unknown as EventRoutingRepository;
  const config = { mail: { alertsPerRecipientPerHour: 10, alertsPerAccountPerHour: 10 } } as unknown as AppConfig;
  return { router: new EventRouter(routing, {} as LiveBus, {} as JobQueue, config), passes };
}

describe('EventRouter wake-ups', () => {
  beforeEach(() => jest.useFakeTimers({ now: 1_000_000 }));
  afterEach(() => jest.useRealTimers());

  it('routes at once when woken after a quiet gap', async () => {
    const { router: r, passes } = router();
    r.wake();
    await jest.advanceTimersByTimeAsync(0);
    expect(passes).toHaveLength(1);
    await jest.advanceTimersByTimeAsync(ROUTE_GAP_MS);
    r.wake();
    await jest.advanceTimersByTimeAsync(0);
    expect(passes).toHaveLength(2);
    await r.stop();
  });

  it('lets the wake-ups of a burst share one pass at the end of the gap', async () => {
    const { router: r, passes } = router();
    r.wake();
    await jest.advanceTimersByTimeAsync(0);
    // A hundred uplink notices within the gap after the first pass.
    for (let i = 0; i < 100; i++) {
      r.wake();
      await jest.advanceTimersByTimeAsync(ROUTE_GAP_MS / 200);
    }
    expect(passes).toHaveLength(1);
    await jest.advanceTimersByTimeAsync(ROUTE_GAP_MS);
    expect(passes).toHaveLength(2);
    // Nothing else woke it: no pass after that.
    await jest.advanceTimersByTimeAsync(10 * ROUTE_GAP_MS);
    expect(passes).toHaveLength(2);
    expect(passes[1]! - passes[0]!).toBeGreaterThanOrEqual(ROUTE_GAP_MS);
    await r.stop();
  });

  it('drops a pass waiting for the gap when stopped', async () => {
    const { router: r, passes } = router();
    r.wake();
    await jest.advanceTimersByTimeAsync(0);
    r.wake();
    await r.stop();
    await jest.advanceTimersByTimeAsync(10 * ROUTE_GAP_MS);
    expect(passes).toHaveLength(1);
  });
});
