import { Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { type DeviceRef, type Eui, toUplinkRecordWire } from '@dts/domain';
import { CommandsRepository, DevicesRepository, LiveBus, type LiveSignal, UplinkReadsRepository, type UplinkRow } from '@dts/persistence';
import type { Response } from 'express';
import { whenWritable } from '../../common/http/when-writable';
import type { AuthPrincipal } from '../../common/auth/auth-principal';
import { toCommandWire } from '../commands/command.mapper';
import { DeviceAccessService } from '../devices/device-access.service';

/** A comment line this often keeps proxies (nginx's proxy_read_timeout) from closing a quiet stream. */
export const LIVE_HEARTBEAT_MS = 15_000;
/** How long an EventSource waits before reconnecting (the `retry:` field). */
const RETRY_MS = 3_000;
/**
 * A client whose unsent output passes this is not reading: it is cut off rather than buffered
 * without bound. It reconnects with Last-Event-ID and is replayed what it missed.
 */
const MAX_UNSENT_BYTES = 4 * 1024 * 1024;
/** Rows per query when a hub catches up after a notice. */
const LIVE_BATCH = 500;
/** Commands whose last status a hub remembers, to drop notices that changed nothing it has not sent. */
const REMEMBERED_COMMANDS = 1_000;

interface LiveClient {
  res: Response;
  /** Whose access the stream was opened with: re-checked before anything is sent to it. */
  accountId: number;
  closed: boolean;
  /** Events held back while this client's Last-Event-ID replay is written; null once live. */
  held: string[] | null;
}

/**
 * The clients of one device in this process. Steps (joining, catching up after a notice) run one
 * at a time in arrival order, so every client sees the device's uplinks once each, in uid order.
 */
class DeviceHub {
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

const uplinkEvent = (row: UplinkRow, device: DeviceRef) => `id: ${row.uid}\nevent: uplink\ndata: ${JSON.stringify(toUplinkRecordWire(row, device))}\n\n`;

/**
 * GET /user/device/live/{eui}: new uplinks and command status changes as Server-Sent Events.
 *
 * One LiveBus listener per process (one LISTEN connection or Redis subscriber underneath) feeds one
 * hub per device with clients here; a hub loads the rows a notice announces once and writes them
 * to each of its clients.
 *
 * Uplink events carry `id: <uplink uid>`. For one device, uids are committed in order (the ingest
 * transaction locks the device before drawing them), so a client that saw uid N has seen every
 * earlier one, and a reconnect with `Last-Event-ID: N` is replayed exactly the uplinks after N.
 * Command events carry no id (the last id stays that of the last uplink): a command's history is
 * its current row, which GET /user/device/command/{eui} gives after a reconnect.
 */
@Injectable()
export class LiveFeedService implements OnModuleDestroy {
  private readonly logger = new Logger(LiveFeedService.name);
  private readonly hubs = new Map<number, DeviceHub>();
  private listening: Promise<() => void> | null = null;
  private clientCount = 0;

  constructor(
    private readonly access: DeviceAccessService,
    private readonly bus: LiveBus,
    private readonly reads: UplinkReadsRepository,
    private readonly commands: CommandsRepository,
    private readonly devices: DevicesRepository,
  ) {}

  /** Clients connected to this process and devices they follow (hubs). */
  stats(): { clients: number; devices: number; listening: boolean } {
    return { clients: this.clientCount, devices: this.hubs.size, listening: this.bus.listenerCount > 0 };
  }

  /**
   * Checks access and subscribes before the first byte, so that a refusal or an unavailable
   * database is still an error envelope; then holds the response open as the event stream.
   */
  async open(principal: AuthPrincipal, eui: Eui, lastEventId: string | undefined, res: Response): Promise<void> {
    const access = await this.access.require(principal, eui);
    const device: DeviceRef = { uid: access.uid, eui: access.eui, ownerId: access.ownerId };
    await this.listen();
    const resumeAfter = lastEventId !== undefined && /^\d{1,19}$/.test(lastEventId.trim()) ? BigInt(lastEventId.trim()) : null;

    const client: LiveClient = { res, accountId: principal.accountId, closed: false, held: null };
    const hub = this.hubFor(device);
    hub.members++;
    this.clientCount++;
    let heartbeat: NodeJS.Timeout | null = null;
    const leave = () => {
      if (client.closed) return;
      client.closed = true;
      if (heartbeat) clearInterval(heartbeat);
      hub.clients.delete(client);
      this.clientCount--;
      if (--hub.members === 0 && this.hubs.get(device.uid) === hub) this.hubs.delete(device.uid);
    };
    res.on('close', leave);

    let joinedAt: bigint;
    try {
      joinedAt = await hub.run(async () => {
        if (!hub.started) {
          // Read after the bus listens: whatever commits later is announced to this hub.
          hub.cursor = BigInt(await this.reads.newestUid(device.uid));
          hub.started = true;
        }
        if (!client.closed) {
          hub.clients.add(client);
          if (resumeAfter !== null && resumeAfter < hub.cursor) client.held = [];
        }
        return hub.cursor;
      });
    } catch (error) {
      leave();
      throw error;
    }
    if (client.closed) return;

    res.status(200);
    res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
    res.setHeader('Cache-Control', 'no-cache, no-transform');
    // nginx (deploy/nginx.conf) buffers responses; an event must reach the client when it happens.
    res.setHeader('X-Accel-Buffering', 'no');
    res.flushHeaders();
    res.write(`retry: ${RETRY_MS}\n: live feed of ${device.eui}\n\n`);
    heartbeat = setInterval(() => {
      if (!client.closed) res.write(': heartbeat\n\n');
    }, LIVE_HEARTBEAT_MS);

    if (client.held !== null) await this.replay(client, device, resumeAfter!, joinedAt);
  }

  onModuleDestroy(): void {
    // Open streams would keep the HTTP server from closing: end them; clients reconnect elsewhere.
    for (const hub of this.hubs.values()) for (const client of hub.clients) client.res.end();
    this.hubs.clear();
    void this.listening?.then((unlisten) => unlisten()).catch(() => undefined);
  }

  /** The uplinks after the client's Last-Event-ID up to where the hub stood when it joined, then what the hub sent meanwhile. */
  private async replay(client: LiveClient, device: DeviceRef, after: bigint, upTo: bigint): Promise<void> {
    try {
      for await (const batch of this.reads.afterUid(device.uid, String(after), String(upTo))) {
        if (client.closed) return;
        if (!client.res.write(batch.map((row) => uplinkEvent(row, device)).join(''))) await whenWritable(client.res);
      }
    } catch (error) {
      this.logger.warn(`live replay for ${device.eui} failed: ${error instanceof Error ? error.message : String(error)}`);
      client.res.destroy();
      return;
    }
    const held = client.held ?? [];
    client.held = null;
    for (const text of held) this.write(client, text);
  }

  private listen(): Promise<() => void> {
    this.listening ??= this.bus.listen((signal) => this.onSignal(signal)).catch((error: unknown) => {
      this.listening = null;
      throw error;
    });
    return this.listening;
  }

  private hubFor(device: DeviceRef): DeviceHub {
    let hub = this.hubs.get(device.uid);
    if (!hub) {
      hub = new DeviceHub(device);
      this.hubs.set(device.uid, hub);
    }
    return hub;
  }

  private onSignal(signal: LiveSignal): void {
    switch (signal.kind) {
      case 'uplinks': {
        const hub = this.hubs.get(signal.device);
        if (hub) void hub.run(() => this.catchUp(hub, BigInt(signal.newest))).catch((error: unknown) => this.stepFailed(hub, error));
        return;
      }
      case 'command': {
        const hub = this.hubs.get(signal.device);
        if (hub) void hub.run(() => this.commandChanged(hub, signal.command)).catch((error: unknown) => this.stepFailed(hub, error));
        return;
      }
      case 'resync':
        // Notices may have been lost while the subscription was down: read how far each device is.
        for (const hub of this.hubs.values()) {
          void hub.run(async () => this.catchUp(hub, BigInt(await this.reads.newestUid(hub.device.uid)))).catch((error: unknown) => this.stepFailed(hub, error));
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
      hub.cursor = BigInt(batch[batch.length - 1].uid);
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

  /**
   * Access is not only checked when a stream opens: a device deleted, handed over or no longer
   * shared must stop reaching the accounts that lost it, at the very next event. One query per
   * account following the device (usually one), per notice.
   */
  private async dropRevoked(hub: DeviceHub): Promise<void> {
    const accounts = new Set([...hub.clients].map((c) => c.accountId));
    for (const accountId of accounts) {
      if (await this.devices.accessible(accountId, hub.device.eui)) continue;
      for (const client of hub.clients) if (client.accountId === accountId) client.res.end();
    }
  }

  /**
   * A step failed (database gone). The cursor only moves past rows that were sent, so the next
   * notice for the device sends what this one would have; a lost command event is not replayed.
   */
  private stepFailed(hub: DeviceHub, error: unknown): void {
    this.logger.warn(`live feed of ${hub.device.eui}: ${error instanceof Error ? error.message : String(error)}`);
  }

  private broadcast(hub: DeviceHub, text: string): void {
    for (const client of hub.clients) this.write(client, text);
  }

  private write(client: LiveClient, text: string): void {
    if (client.closed) return;
    if (client.held !== null) {
      client.held.push(text);
      return;
    }
    client.res.write(text);
    if (client.res.writableLength > MAX_UNSENT_BYTES) client.res.destroy();
  }
}
