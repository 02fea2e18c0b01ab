import type { DeviceListRepository } from '@dts/persistence';
import { DeviceHub, type LiveClient } from './live-hub';

/** How long a device none of this process's account feeds reaches is not asked about again. */
const UNREACHED_TTL_MS = 30_000;

/**
 * The account feeds (GET /user/live) of this process, and how they come to follow a device they
 * did not follow when they opened: a device registered or shared since. A notice for a device
 * with no hub here makes a hub on probation; before the hub's step sends anything, the feeds whose
 * accounts reach the device (one query) join it, and a hub nobody joined goes again. A device none
 * of them reaches is not asked about again for a while.
 */
export class AccountFeeds {
  private readonly byAccount = new Map<number, Set<LiveClient>>();
  /** Devices none of the feeds reached when last asked (uid → when asked). */
  private readonly unreached = new Map<number, number>();

  constructor(private readonly deviceList: DeviceListRepository) {}

  add(client: LiveClient): void {
    let feeds = this.byAccount.get(client.accountId);
    if (!feeds) this.byAccount.set(client.accountId, (feeds = new Set()));
    feeds.add(client);
    this.unreached.clear(); // a new account may reach devices no feed here did
  }

  remove(client: LiveClient): void {
    const feeds = this.byAccount.get(client.accountId);
    if (feeds?.delete(client) && feeds.size === 0) this.byAccount.delete(client.accountId);
  }

  all(): LiveClient[] {
    return [...this.byAccount.values()].flatMap((s) => [...s]);
  }

  clear(): void {
    this.byAccount.clear();
  }

  /**
   * A device with no hub here, which an account feed of this process may have come to reach (a
   * device registered or shared after the feed opened): a hub on probation, kept by adopt() only if
   * a feed reaches the device.
   */
  probation(deviceUid: number, hubs: Map<number, DeviceHub>): DeviceHub | null {
    if (this.byAccount.size === 0) return null;
    const asked = this.unreached.get(deviceUid);
    if (asked !== undefined && Date.now() - asked < UNREACHED_TTL_MS) return null;
    const hub = new DeviceHub({ uid: deviceUid, eui: '', ownerId: 0 });
    hub.started = true;
    // Everything the device stored after the earliest of the feeds opened is new to them.
    hub.cursor = this.all().reduce((min, c) => (c.account!.since < min ? c.account!.since : min), 2n ** 63n);
    hubs.set(deviceUid, hub);
    return hub;
  }

  /** Account feeds that reach the hub's device but are not in its hub yet join it (before the step that sends). */
  async adopt(hub: DeviceHub, hubs: Map<number, DeviceHub>): Promise<void> {
    const inHub = new Set([...hub.clients].filter((c) => c.account).map((c) => c.accountId));
    const candidates = [...this.byAccount.keys()].filter((a) => !inHub.has(a));
    if (candidates.length === 0 || (hub.members > 0 && this.unreachedRecently(hub.device.uid))) return this.dropIfEmpty(hub, hubs);
    const reach = await this.deviceList.reach(hub.device.uid, candidates);
    if (!reach || reach.accounts.length === 0) {
      this.unreached.set(hub.device.uid, Date.now());
      return this.dropIfEmpty(hub, hubs);
    }
    Object.assign(hub.device, reach.device);
    for (const accountId of reach.accounts) {
      for (const client of this.byAccount.get(accountId) ?? []) {
        if (client.closed || hub.clients.has(client)) continue;
        hub.members++;
        client.hubs.add(hub);
        hub.clients.add(client);
      }
    }
  }

  private unreachedRecently(deviceUid: number): boolean {
    const asked = this.unreached.get(deviceUid);
    return asked !== undefined && Date.now() - asked < UNREACHED_TTL_MS;
  }

  /** A probation hub that no client joined goes again. */
  private dropIfEmpty(hub: DeviceHub, hubs: Map<number, DeviceHub>): void {
    if (hub.members === 0 && hubs.get(hub.device.uid) === hub) hubs.delete(hub.device.uid);
  }
}
