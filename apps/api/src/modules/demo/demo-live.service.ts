import { Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { DEMO_DEVICES, DEMO_GATEWAY, DEMO_ROUTE, DEMO_UTC_OFFSET_HOURS, pointAlong } from '@dts/demo';
import { bytesToHex, correlationId, encodeCayenneLpp, encodeDtEnvironment, encodeDtTrackerPosition, type Eui, REST, THE_THINGS_STACK } from '@dts/domain';
import type { AuthPrincipal } from '../../common/auth/auth-principal';
import type { IngestCaller } from '../../common/auth/ingest-caller';
import { CommandsService } from '../commands/commands.service';
import { IngestService } from '../ingest/ingest.service';

/** How often the demo's trackers report while the service runs (the console shows them move). */
export const DEMO_TRACKER_SECONDS = 15;
/** How often the demo's weather stations report. */
export const DEMO_WEATHER_SECONDS = 30;
/** How often the patrol bike is asked for its position (a command moving through its statuses). */
export const DEMO_COMMAND_SECONDS = 120;

const sin = (t: number, periodS: number, phase = 0) => Math.sin((2 * Math.PI * t) / periodS + phase);

/**
 * DEMO=1 keeps the demo account alive while the service runs: the two trackers go on round the
 * Vondelpark, the weather stations go on reporting, and the patrol bike is sent a command now and
 * then that The Things Stack's events move to Sent and Acknowledged — all through the same
 * ingestion and command services a network's traffic takes, so the console's live views show
 * exactly what real devices would make them show.
 */
@Injectable()
export class DemoLiveService implements OnModuleDestroy {
  private readonly logger = new Logger('demo');
  private readonly timers: NodeJS.Timeout[] = [];
  private fcnt = Math.floor(Date.now() / 1000) % 100_000;
  private caller: { principal: AuthPrincipal; caller: IngestCaller } | null = null;

  constructor(
    private readonly ingest: IngestService,
    private readonly commands: CommandsService,
  ) {}

  start(principal: AuthPrincipal): void {
    const caller: IngestCaller = { accountId: principal.accountId, tokenUid: principal.tokenUid };
    const every = (seconds: number, task: () => Promise<void>) => {
      const timer = setInterval(
        () => void task().catch((error: unknown) => this.logger.warn(`demo traffic: ${error instanceof Error ? error.message : String(error)}`)),
        seconds * 1000,
      );
      timer.unref();
      this.timers.push(timer);
    };
    every(DEMO_TRACKER_SECONDS, () => this.trackers(caller));
    every(DEMO_WEATHER_SECONDS, () => this.weather(caller));
    every(DEMO_COMMAND_SECONDS, () => this.command(principal, caller));
    this.caller = { principal, caller };
  }

  /** Ends the traffic (shutdown; tests that count what the seeding made). */
  stop(): void {
    for (const timer of this.timers.splice(0)) clearInterval(timer);
  }

  /** One round of every device's report and a command, now (what the timers do over a few minutes). */
  async pulse(): Promise<void> {
    if (!this.caller) throw new Error('the demo traffic has not started');
    await this.trackers(this.caller.caller);
    await this.weather(this.caller.caller);
    await this.command(this.caller.principal, this.caller.caller);
  }

  onModuleDestroy(): void {
    this.stop();
  }

  private uplink(eui: string, port: number, payload: Uint8Array, now: number) {
    const rssi = -90 + Math.round(6 * sin(now, 600));
    return {
      devEUI: eui,
      port,
      payload_hex: bytesToHex(payload),
      time_stamp_unix: now,
      fcnt: ++this.fcnt,
      network: 'Simulated',
      SF: 8,
      gateways: [{ gateway_id: DEMO_GATEWAY.id, rssi, snr: 7.5, lat: DEMO_GATEWAY.position[0], lon: DEMO_GATEWAY.position[1] }],
    };
  }

  /** Both trackers where the clock puts them on the loop: a lap of 20 and of 32 minutes, opposite ways. */
  private async trackers(caller: IngestCaller): Promise<void> {
    const now = Math.floor(Date.now() / 1000);
    const [bLat, bLon] = pointAlong(DEMO_ROUTE, now / (20 * 60));
    const [cLat, cLon] = pointAlong(DEMO_ROUTE, 0.35 - now / (32 * 60));
    const bike = encodeDtTrackerPosition({ tsUnix: now, lat: bLat, lon: bLon, alt: 2, ttf: 3, dop: 1.2, batteryMv: 3950, batteryPercent: 78, uid: this.fcnt });
    const cart = encodeCayenneLpp([
      { channel: 1, type: 'gps', lat: cLat, lon: cLon, alt: 2 },
      { channel: 2, type: 'voltage', value: 3.91 },
    ]);
    await this.ingest.deliver(REST, caller, [this.uplink(DEMO_DEVICES.patrolBike.eui, 1, bike, now), this.uplink(DEMO_DEVICES.rangerCart.eui, 1, cart, now)]);
  }

  /** Temperature and humidity following the local day, with a slow wobble so the chart visibly moves. */
  private async weather(caller: IngestCaller): Promise<void> {
    const now = Math.floor(Date.now() / 1000);
    const day = sin(now + DEMO_UTC_OFFSET_HOURS * 3600 - 9 * 3600, 86_400, -Math.PI / 2);
    const wobble = sin(now, 900);
    const meadowT = 12.5 + 5.5 * day + 0.4 * wobble;
    const pondT = 11.5 + 3.5 * day + 0.3 * wobble;
    const meadow = encodeDtEnvironment({
      temperature: meadowT,
      humidity: Math.min(100, 74 - 12 * day),
      pressure: 1013 + 2 * sin(now, 43_200),
      illuminance: Math.max(0, Math.round(20_000 * day)),
      co2: 420,
      batteryMv: 3630,
      batteryPercent: 88,
    });
    const pond = encodeCayenneLpp([
      { channel: 1, type: 'temperature', value: pondT },
      { channel: 2, type: 'humidity', value: Math.min(100, 84 - 8 * day) },
      { channel: 3, type: 'barometer', value: 1013 + 2 * sin(now, 43_200) },
      { channel: 4, type: 'voltage', value: 3.57 },
    ]);
    await this.ingest.deliver(REST, caller, [this.uplink(DEMO_DEVICES.meadow.eui, 1, meadow, now), this.uplink(DEMO_DEVICES.pond.eui, 1, pond, now)]);
  }

  /** A position request the worker schedules, then the network's sent and acknowledged events a few seconds apart. */
  private async command(principal: AuthPrincipal, caller: IngestCaller): Promise<void> {
    const { uid } = await this.commands.create(principal, DEMO_DEVICES.patrolBike.eui as Eui, { command: 'request_position', confirmed: true });
    const event = (body: Record<string, unknown>) =>
      this.ingest.deliver(THE_THINGS_STACK, caller, { correlation_ids: [correlationId(uid)], received_at: new Date().toISOString(), ...body });
    const later = (ms: number, step: () => Promise<unknown>) => {
      const timer = setTimeout(() => void step().catch(() => undefined), ms);
      timer.unref();
    };
    later(5_000, () => event({ downlink_sent: { f_port: 10 } }));
    later(10_000, () => event({ downlink_ack: { f_port: 10 } }));
  }
}
