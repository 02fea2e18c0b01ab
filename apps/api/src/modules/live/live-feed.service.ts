import { Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { type DeviceRef, type Eui, type ImageLiveEventWire, toAlertWire, toImageGalleryEntryWire } from '@dts/domain';
import {
  AlertsRepository,
  CommandsRepository,
  DeviceListRepository,
  ImageGalleryRepository,
  LiveBus,
  type LiveSignal,
  UplinkReadsRepository,
} from '@dts/persistence';
import type { AuthPrincipal } from '../../common/auth/auth-principal';
import type { EventSink } from '../../common/http/open-connection';
import { toCommandWire } from '../commands/command.mapper';
import { DeviceAccessService } from '../devices/device-access.service';
import { type DeviceHub, uplinkEvent, writeTo } from './live-hub';
import { parseLastEventId, replay, startStream } from './live-stream';
import { LiveStreamsService } from './live-streams.service';
import { LiveSubscriptions } from './live-subscriptions';
import { BusSubscription } from './bus-subscription';

export { LIVE_HEARTBEAT_MS } from './live-stream';

/** Rows per query when a hub catches up after a notice. */
const LIVE_BATCH = 500;
/** Commands whose last status a hub remembers, to drop notices that changed nothing it has not sent. */
const REMEMBERED_COMMANDS = 1_000;

/**
 * The live feeds: GET /user/device/live/{eui} (one device) and GET /user/live (every device of the
 * account), Server-Sent Events of new uplinks and command status changes.
 *
 * One LiveBus listener per process (one LISTEN connection or Redis subscriber underneath) feeds one
 * hub per device with clients here; a hub loads the rows a notice announces once and writes them
 * to each of its clients. An account feed is one client in the hub of each of its devices, so both
 * feeds share the same path: the same loads, access checks and cut-off of slow readers.
 *
 * Uplink events carry `id: <uplink uid>`. For one device, uids are committed in order (the ingest
 * transaction locks the device before drawing them), so a client that saw uid N has seen every
 * earlier one of that device, and a reconnect with `Last-Event-ID: N` is replayed exactly the
 * uplinks after N. Across devices uids are drawn in order but may commit out of order, so an
 * account feed's replay sends the uplinks of all its devices above N: an uplink of another device
 * whose delivery committed after the reconnect with a lower uid is not replayed (docs/api.md §5).
 * Command events carry no id: a command's history is its current row, which GET
 * /user/device/command/{eui} gives after a reconnect.
 */
@Injectable()
export class LiveFeedService implements OnModuleDestroy {
  private readonly logger = new Logger(LiveFeedService.name);
  private readonly subs: LiveSubscriptions;
  private readonly subscription: BusSubscription;

  constructor(
    private readonly access: DeviceAccessService,
    private readonly bus: LiveBus,
    private readonly reads: UplinkReadsRepository,
    private readonly commands: CommandsRepository,
    private readonly deviceList: DeviceListRepository,
    private readonly streams: LiveStreamsService,
    private readonly alerts: AlertsRepository,
    private readonly galleries: ImageGalleryRepository,
  ) {
    this.subs = new LiveSubscriptions(deviceList);
    this.subscription = new BusSubscription(bus, (signal) => this.onSignal(signal));
  }

  /** Clients connected to this process and devices they follow (hubs). */
  stats(): { clients: number; devices: number; listening: boolean } {
    return { clients: this.subs.clients, devices: this.subs.hubs.size, listening: this.bus.listenerCount > 0 };
  }

  /**
   * GET /user/device/live/{eui}. Checks access and subscribes before the first byte, so that a
   * refusal or an unavailable database is still an error envelope; then holds the stream open.
   */
  async open(principal: AuthPrincipal, eui: Eui, lastEventId: string | undefined, sink: EventSink): Promise<void> {
    // Capped per account, cut when its credential ends or its client stops reading (LiveStreamsService).
    await this.streams.admit(principal, 'live', sink);
    const access = await this.access.require(principal, eui);
    const device: DeviceRef = { uid: access.uid, eui: access.eui, ownerId: access.ownerId };
    await this.subscription.open();
    const resumeAfter = parseLastEventId(lastEventId);
    const client = this.subs.connect(sink, principal.accountId, null);
    const hub = this.subs.hubFor(device);
    let joinedAt: bigint;
    try {
      joinedAt = await this.subs.join(client, hub, resumeAfter, async () => BigInt(await this.reads.newestUid(device.uid)));
    } catch (error) {
      client.sink.abandon();
      throw error;
    }
    if (client.closed) return;
    startStream(client, `live feed of ${device.eui}`);
    if (client.held !== null) await replay(client, this.reads.afterUid(device.uid, String(resumeAfter), String(joinedAt)), () => device, this.logger);
  }

  /**
   * GET /user/live: every device the account reaches, on one connection. Devices registered or
   * shared with the account later join the stream with their first event; devices it loses leave it.
   */
  async openAccount(principal: AuthPrincipal, lastEventId: string | undefined, sink: EventSink): Promise<void> {
    // The same admission as every long response: the per-account cap, revocation, the stall timeout.
    await this.streams.admit(principal, 'live', sink);
    await this.subscription.open();
    const resumeAfter = parseLastEventId(lastEventId);
    // Read after the bus listens: a device adopted later is sent what it stores after this.
    const since = BigInt(await this.reads.newestUidOverall());
    const devices = await this.deviceList.refs(principal.accountId);
    const client = this.subs.connect(sink, principal.accountId, { since });
    const byUid = new Map(devices.map((d) => [d.uid, d]));
    const joined = new Map<number, bigint>();
    try {
      const hubs = devices.map((d) => this.subs.hubFor(d));
      const fresh = hubs.filter((h) => !h.started).map((h) => h.device.uid);
      const newest = await this.reads.newestUids(fresh);
      await Promise.all(
        hubs.map(async (hub) =>
          joined.set(hub.device.uid, await this.subs.join(client, hub, resumeAfter, async () => BigInt(newest.get(hub.device.uid) ?? '0'))),
        ),
      );
    } catch (error) {
      client.sink.abandon();
      throw error;
    }
    if (client.closed) return;
    startStream(client, `live feed of the account's ${devices.length} devices`);
    if (client.held !== null) {
      const bounds = [...joined].filter(([, upTo]) => upTo > resumeAfter!).map(([device, upTo]) => ({ device, upTo: String(upTo) }));
      await replay(client, this.reads.afterUidAcross(bounds, String(resumeAfter)), (row) => byUid.get((row as { device_id: number }).device_id)!, this.logger);
    }
  }

  onModuleDestroy(): void {
    // Open streams would keep the HTTP server from closing: end them; clients reconnect elsewhere.
    this.subs.endAll();
    this.subscription.close();
  }

  private onSignal(signal: LiveSignal): void {
    switch (signal.kind) {
      case 'uplinks':
      case 'command':
      case 'alert':
      case 'image': {
        const hub = this.subs.hubs.get(signal.device) ?? this.subs.feeds.probation(signal.device, this.subs.hubs);
        if (!hub) return;
        const step =
          signal.kind === 'uplinks'
            ? () => this.catchUp(hub, BigInt(signal.newest))
            : signal.kind === 'command'
              ? () => this.commandChanged(hub, signal.command)
              : signal.kind === 'alert'
                ? () => this.alertChanged(hub, signal.alert)
                : () => this.imageChanged(hub, signal.image);
        void hub
          .run(async () => {
            await this.subs.feeds.adopt(hub, this.subs.hubs);
            await step();
          })
          .catch((error: unknown) => this.stepFailed(hub, error));
        return;
      }
      case 'credentials':
        // LiveStreamsService re-validates every stream's credential.
        return;
      case 'integration':
        // For the delivery dispatcher: nothing a live feed shows.
        return;
      case 'resync':
        // Notices may have been lost while the subscription was down: read how far each device is.
        for (const hub of this.subs.hubs.values()) {
          void hub
            .run(async () => this.catchUp(hub, BigInt(await this.reads.newestUid(hub.device.uid))))
            .catch((error: unknown) => this.stepFailed(hub, error));
        }
        return;
    }
  }

  /** Sends the device's uplinks after the hub's cursor up to `newest` (all committed: see the class comment). */
  private async catchUp(hub: DeviceHub, newest: bigint): Promise<void> {
    if (newest <= hub.cursor || hub.clients.size === 0) {
      if (newest > hub.cursor) hub.cursor = newest;
      return;
    }
    await this.dropRevoked(hub);
    for await (const batch of this.reads.afterUid(hub.device.uid, String(hub.cursor), String(newest), LIVE_BATCH)) {
      this.broadcast(hub, batch.map((row) => uplinkEvent(row, hub.device)).join(''));
      const last = batch.at(-1);
      if (last) hub.cursor = BigInt(last.uid);
    }
    hub.cursor = newest;
  }

  private async commandChanged(hub: DeviceHub, uid: number): Promise<void> {
    if (hub.clients.size === 0) return;
    const row = await this.commands.find(uid);
    if (!row || row.device_id !== hub.device.uid || hub.statuses.get(uid) === row.status) return;
    hub.statuses.delete(uid);
    hub.statuses.set(uid, row.status);
    if (hub.statuses.size > REMEMBERED_COMMANDS) hub.statuses.delete(hub.statuses.keys().next().value!);
    await this.dropRevoked(hub);
    this.broadcast(hub, `event: command\ndata: ${JSON.stringify(toCommandWire(row))}\n\n`);
  }

  /** An alert raised or cleared: to the clients (device streams and account feeds) of the account it belongs to only. */
  private async alertChanged(hub: DeviceHub, uid: string): Promise<void> {
    if (hub.clients.size === 0) return;
    const row = await this.alerts.byUid(uid);
    if (!row || row.device_id !== hub.device.uid) return;
    await this.dropRevoked(hub);
    const text = `event: alert\ndata: ${JSON.stringify(toAlertWire(row))}\n\n`;
    for (const client of hub.clients) if (client.accountId === row.account_id) writeTo(client, text);
  }

  /**
   * An image stored, processed, annotated or deleted: the image as the gallery shows it, to every
   * client of the device. An image not yet complete (its bytes still being stored) is not news.
   */
  private async imageChanged(hub: DeviceHub, uid: number): Promise<void> {
    if (hub.clients.size === 0) return;
    const row = await this.galleries.galleryEntry(uid);
    if (!row || row.device_id !== hub.device.uid || !row.completed) return;
    await this.dropRevoked(hub);
    const event: ImageLiveEventWire = { ...toImageGalleryEntryWire(row), deleted: row.deleted === 1 };
    this.broadcast(hub, `event: image\ndata: ${JSON.stringify(event)}\n\n`);
  }

  /**
   * Access is not only checked when a stream opens: a device deleted, handed over or no longer
   * shared must stop reaching the accounts that lost it, at the very next event. One query per
   * notice, whatever the number of accounts following the device. A device stream ends; an account
   * feed only leaves the device's hub.
   */
  private async dropRevoked(hub: DeviceHub): Promise<void> {
    const accounts = [...new Set([...hub.clients].map((c) => c.accountId))];
    if (accounts.length === 0) return;
    const reach = await this.deviceList.reach(hub.device.uid, accounts);
    const kept = new Set(reach?.accounts ?? []);
    for (const client of [...hub.clients]) {
      if (kept.has(client.accountId)) continue;
      if (client.account) this.subs.leaveHub(client, hub);
      else client.sink.end();
    }
  }

  /**
   * A step failed (database gone). The cursor only moves past rows that were sent, so the next
   * notice for the device sends what this one would have; a lost command event is not replayed.
   */
  private stepFailed(hub: DeviceHub, error: unknown): void {
    this.logger.warn(`live feed of ${hub.device.eui || `device ${hub.device.uid}`}: ${error instanceof Error ? error.message : String(error)}`);
  }

  private broadcast(hub: DeviceHub, text: string): void {
    for (const client of hub.clients) writeTo(client, text);
  }
}
