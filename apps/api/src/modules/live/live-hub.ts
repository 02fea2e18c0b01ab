import { type DeviceRef, toUplinkRecordWire } from '@dts/domain';
import type { UplinkRow } from '@dts/persistence';
import type { EventSink } from '../../common/http/open-connection';

/**
 * A client whose unsent output passes this is not reading: it is cut off rather than buffered
 * without bound. It reconnects with Last-Event-ID and is replayed what it missed.
 */
export const MAX_UNSENT_BYTES = 4 * 1024 * 1024;

export interface LiveClient {
  sink: EventSink;
  /** Whose access the stream was opened with: re-checked before anything is sent to it. */
  accountId: number;
  closed: boolean;
  /** Events held back while this client's Last-Event-ID replay is written; null once live. */
  held: string[] | null;
  /** Hubs the client is in: one for a device feed, one per device of the account for an account feed. */
  readonly hubs: Set<DeviceHub>;
  heartbeat: NodeJS.Timeout | null;
  /**
   * GET /user/live: the client follows every device its account reaches. Losing a device takes it
   * out of that hub only; the stream goes on. `since`: the newest uplink uid when it opened.
   */
  account: { since: bigint } | null;
}

/**
 * The clients of one device in this process. Steps (joining, catching up after a notice) run one
 * at a time in arrival order, so every client sees the device's uplinks once each, in uid order.
 */
export class DeviceHub {
  readonly clients = new Set<LiveClient>();
  /** Clients joined or joining; the hub goes when it drops to 0. */
  members = 0;
  /** Every uplink of the device up to this uid has been sent to the hub's clients (or predates them). */
  cursor = 0n;
  /** Whether `cursor` has been read from the database (by the first client's join). */
  started = false;
  readonly statuses = new Map<number, string>();
  private chain: Promise<unknown> = Promise.resolve();

  constructor(readonly device: DeviceRef) {}

  run<T>(step: () => Promise<T>): Promise<T> {
    const result = this.chain.then(step);
    this.chain = result.catch(() => undefined);
    return result;
  }
}

export const uplinkEvent = (row: UplinkRow, device: DeviceRef) => `id: ${row.uid}\nevent: uplink\ndata: ${JSON.stringify(toUplinkRecordWire(row, device))}\n\n`;

/** Writes an event, holds it during a replay, and cuts off a client that stopped reading. */
export function writeTo(client: LiveClient, text: string): void {
  if (client.closed) return;
  if (client.held !== null) {
    client.held.push(text);
    return;
  }
  client.sink.write(text);
  if (client.sink.unsent > MAX_UNSENT_BYTES) client.sink.destroy();
}
