import type { DeviceRef } from '@dts/domain';
import type { DeviceListRepository } from '@dts/persistence';
import type { EventSink } from '../../common/http/open-connection';
import { AccountFeeds } from './account-feeds';
import { DeviceHub, type LiveClient } from './live-hub';

/**
 * Who follows what in this process: one hub per device with clients here, the account feeds, and
 * the number of connected clients. A client joins one hub (a device feed) or one per device of its
 * account (an account feed); a hub goes when its last member leaves.
 */
export class LiveSubscriptions {
  readonly hubs = new Map<number, DeviceHub>();
  readonly feeds: AccountFeeds;
  private clientCount = 0;

  constructor(deviceList: DeviceListRepository) {
    this.feeds = new AccountFeeds(deviceList);
  }

  /** Clients connected to this process. */
  get clients(): number {
    return this.clientCount;
  }

  /** A new client; its stream's close takes it out of every hub it is in. */
  connect(sink: EventSink, accountId: number, account: LiveClient['account']): LiveClient {
    const client: LiveClient = { sink, accountId, closed: false, held: null, account, hubs: new Set(), heartbeat: null };
    this.clientCount++;
    if (account) this.feeds.add(client);
    sink.onClose(() => {
      if (client.closed) return;
      client.closed = true;
      if (client.heartbeat) clearInterval(client.heartbeat);
      this.clientCount--;
      for (const hub of [...client.hubs]) this.leaveHub(client, hub);
      this.feeds.remove(client);
    });
    return client;
  }

  /** Adds the client to the hub in the hub's order; resolves with the hub's cursor at that point. */
  join(client: LiveClient, hub: DeviceHub, resumeAfter: bigint | null, startAt: () => Promise<bigint>): Promise<bigint> {
    hub.members++;
    client.hubs.add(hub);
    return hub.run(async () => {
      if (!hub.started) {
        // Read after the bus listens: whatever commits later is announced to this hub.
        hub.cursor = await startAt();
        hub.started = true;
      }
      if (!client.closed) {
        hub.clients.add(client);
        if (resumeAfter !== null && resumeAfter < hub.cursor) client.held ??= [];
      }
      return hub.cursor;
    });
  }

  leaveHub(client: LiveClient, hub: DeviceHub): void {
    if (!client.hubs.delete(hub)) return;
    hub.clients.delete(client);
    if (--hub.members === 0 && this.hubs.get(hub.device.uid) === hub) this.hubs.delete(hub.device.uid);
  }

  hubFor(device: DeviceRef): DeviceHub {
    let hub = this.hubs.get(device.uid);
    if (!hub) {
      hub = new DeviceHub(device);
      this.hubs.set(device.uid, hub);
    }
    return hub;
  }

  /** Ends every stream and forgets every hub and feed. */
  endAll(): void {
    for (const hub of this.hubs.values()) for (const client of hub.clients) client.sink.end();
    for (const client of this.feeds.all()) client.sink.end();
    this.hubs.clear();
    this.feeds.clear();
  }
}
