import type { LiveBus, LiveSignal } from '@dts/persistence';

/**
 * One process-wide subscription to the live bus, opened by the first stream that needs it (a
 * process that never serves a stream never listens) and retried by the next one if it failed.
 */
export class BusSubscription {
  private listening: Promise<() => void> | null = null;

  constructor(
    private readonly bus: LiveBus,
    private readonly onSignal: (signal: LiveSignal) => void,
  ) {}

  open(): Promise<() => void> {
    this.listening ??= this.bus.listen(this.onSignal).catch((error: unknown) => {
      this.listening = null;
      throw error;
    });
    return this.listening;
  }

  close(): void {
    void this.listening?.then((unlisten) => unlisten()).catch(() => undefined);
  }
}
