import { Injectable, Logger } from '@nestjs/common';
import {
  cameraStatusSeries,
  demoWindow,
  encodeCayenneLpp,
  encodeDtCameraTrapStatus,
  encodeDtEnvironment,
  encodeDtTrackerPosition,
  environmentSeries,
  type Eui,
  MAX_INGEST_ITEMS,
  Prng,
  routeBoundingRing,
  trackerTrack,
} from '@dts/domain';
import { Readable } from 'node:stream';
import type { AuthPrincipal } from '../../common/auth/auth-principal';
import { ApiException } from '../../common/http/api.exception';
import { CommandEventsService } from '../commands/command-events.service';
import { CommandsService } from '../commands/commands.service';
import type { CreateCommandDto } from '../commands/dto/create-command.dto';
import { DeviceMetaService } from '../devices/device-meta.service';
import { DevicesService } from '../devices/devices.service';
import { FencesService } from '../fences/fences.service';
import { ImagesService } from '../images/images.service';
import { type IngestCaller, IngestService } from '../ingest/ingest.service';
import { DEMO_DEVICES, DEMO_FENCE_NAME, DEMO_FOLDER, DEMO_GATEWAY, DEMO_PHOTOS, DEMO_ROUTE, DEMO_UTC_OFFSET_HOURS, type DemoDevice } from './demo-devices';
import { renderDemoPhoto } from './demo-photos';

type DemoKey = keyof typeof DEMO_DEVICES;

/** One item of POST /ingest/rest. */
interface RestUplink {
  devEUI: string;
  port: number;
  payload_hex: string;
  time_stamp_unix: number;
  fcnt: number;
  network: string;
  SF: number;
  gateways: { gateway_id: string; rssi: number; snr: number; lat: number; lon: number }[];
}

export interface DemoSeedResult {
  /** Devices registered (and filled) by this run; the others were there already and were left alone. */
  seeded: string[];
  uplinks: number;
  images: number;
  commands: number;
}

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex').toUpperCase();
const TEN_MINUTES = 600;
const QUARTER_HOUR = 900;
const SIX_HOURS = 21_600;

/**
 * Fills the demo account through the same services the HTTP routes use: devices registered as a
 * user would, uplinks delivered as a network would (encoded in each family's byte layout, so they
 * are decoded, stored and update metadata and cache versions as real traffic does), photos
 * uploaded for the worker to make thumbnails, commands created for the worker to dispatch and moved
 * on by network events. Only devices this run registers are filled: a second start adds nothing.
 */
@Injectable()
export class DemoContentService {
  private readonly logger = new Logger('demo');

  constructor(
    private readonly devices: DevicesService,
    private readonly meta: DeviceMetaService,
    private readonly ingest: IngestService,
    private readonly images: ImagesService,
    private readonly commands: CommandsService,
    private readonly events: CommandEventsService,
    private readonly fences: FencesService,
  ) {}

  async seed(principal: AuthPrincipal, now = new Date()): Promise<DemoSeedResult> {
    const fresh = new Set<DemoKey>();
    for (const key of Object.keys(DEMO_DEVICES) as DemoKey[]) if (await this.register(principal, DEMO_DEVICES[key])) fresh.add(key);
    const caller: IngestCaller = { auth: principal };
    const uplinks = await this.deliver(caller, this.uplinks(fresh, now));
    const images = fresh.has('cameraTrap') ? await this.photos(principal, now) : 0;
    const commands = await this.sendCommands(principal, caller, fresh);
    await this.fence(principal);
    return { seeded: [...fresh].map((k) => DEMO_DEVICES[k].eui), uplinks, images, commands };
  }

  /** True when this call registered the device; false when it was there already. */
  private async register(principal: AuthPrincipal, d: DemoDevice): Promise<boolean> {
    const eui = d.eui as Eui;
    try {
      await this.devices.register(principal, eui, { label: d.label, type_ref: d.typeRef, decoder_ref: d.decoderRef, icon_ref: d.iconRef, folder: DEMO_FOLDER, tags: { demo: true } });
    } catch (error) {
      const code = error instanceof ApiException ? error.entries[0].code : null;
      if (code === 'DEVICE_EXISTS') return false;
      if (code === 'DEVICE_OWNED_ELSEWHERE') {
        this.logger.warn(`demo device ${eui} is registered on another account: left out`);
        return false;
      }
      throw error;
    }
    if (d.installedAt) await this.meta.update(principal, eui, { installation_lat: d.installedAt[0], installation_lon: d.installedAt[1] });
    return true;
  }

  private uplinks(fresh: ReadonlySet<DemoKey>, now: Date): RestUplink[] {
    const items: RestUplink[] = [];
    const radio = (eui: string, seed: number, baseRssi = -92) => {
      const rng = new Prng(seed);
      let fcnt = 1000;
      return (tsUnix: number, port: number, payload: Uint8Array, rssi = baseRssi + rng.noise(3), sf = 9): RestUplink => {
        const snr = Math.min(12, Math.max(-15, 9 + (rssi + 80) / 4 + rng.noise(1)));
        return {
          devEUI: eui,
          port,
          payload_hex: hex(payload),
          time_stamp_unix: tsUnix,
          fcnt: fcnt++,
          network: 'Simulated',
          SF: sf,
          gateways: [{ gateway_id: DEMO_GATEWAY.id, rssi: Math.round(rssi), snr: Number(snr.toFixed(1)), lat: DEMO_GATEWAY.position[0], lon: DEMO_GATEWAY.position[1] }],
        };
      };
    };
    const trackWindow = demoWindow(now, 2, TEN_MINUTES);
    const common = { route: DEMO_ROUTE, ...trackWindow, intervalSeconds: TEN_MINUTES, restFromHour: 22, restToHour: 6, utcOffsetHours: DEMO_UTC_OFFSET_HOURS };
    if (fresh.has('patrolBike')) {
      const send = radio(DEMO_DEVICES.patrolBike.eui, 101);
      const track = trackerTrack({ ...common, seed: 1, lapMinutes: 80, phase: 0, reverse: false, batteryStartMv: 4120, batteryDrainMvPerDay: 45 });
      for (const [i, p] of track.entries()) items.push(send(p.tsUnix, 1, encodeDtTrackerPosition({ ...p, uid: i + 1 }), p.rssi, p.rssi < -100 ? 10 : 8));
    }
    if (fresh.has('rangerCart')) {
      const send = radio(DEMO_DEVICES.rangerCart.eui, 102);
      const track = trackerTrack({ ...common, seed: 2, lapMinutes: 130, phase: 0.35, reverse: true, batteryStartMv: 4010, batteryDrainMvPerDay: 60 });
      for (const p of track) {
        const payload = encodeCayenneLpp([
          { channel: 1, type: 'gps', lat: p.lat, lon: p.lon, alt: p.alt },
          { channel: 2, type: 'voltage', value: p.batteryMv / 1000 },
        ]);
        items.push(send(p.tsUnix, 1, payload, p.rssi, p.rssi < -100 ? 10 : 8));
      }
    }
    const envWindow = demoWindow(now, 3, QUARTER_HOUR);
    if (fresh.has('meadow')) {
      const send = radio(DEMO_DEVICES.meadow.eui, 103);
      const series = environmentSeries({ seed: 3, ...envWindow, intervalSeconds: QUARTER_HOUR, meanTemperature: 12.5, swing: 5.5, meanHumidity: 74, utcOffsetHours: DEMO_UTC_OFFSET_HOURS, batteryStartMv: 3640 });
      for (const r of series) items.push(send(r.tsUnix, 1, encodeDtEnvironment(r)));
    }
    if (fresh.has('pond')) {
      const send = radio(DEMO_DEVICES.pond.eui, 104, -84);
      const series = environmentSeries({ seed: 4, ...envWindow, intervalSeconds: QUARTER_HOUR, meanTemperature: 11.5, swing: 3.5, meanHumidity: 84, utcOffsetHours: DEMO_UTC_OFFSET_HOURS, batteryStartMv: 3580 });
      for (const r of series) {
        const payload = encodeCayenneLpp([
          { channel: 1, type: 'temperature', value: r.temperature },
          { channel: 2, type: 'humidity', value: r.humidity },
          { channel: 3, type: 'barometer', value: r.pressure },
          { channel: 4, type: 'voltage', value: r.batteryMv / 1000 },
        ]);
        items.push(send(r.tsUnix, 1, payload));
      }
    }
    if (fresh.has('cameraTrap')) {
      const send = radio(DEMO_DEVICES.cameraTrap.eui, 105, -97);
      const captures = DEMO_PHOTOS.map((p) => this.captureTime(p, now).getTime() / 1000);
      const series = cameraStatusSeries({ seed: 5, ...demoWindow(now, 3, SIX_HOURS), intervalSeconds: SIX_HOURS, captures, utcOffsetHours: DEMO_UTC_OFFSET_HOURS });
      for (const s of series) items.push(send(s.tsUnix, 3, encodeDtCameraTrapStatus({ ...s, sdOk: true, pirEnabled: true })));
    }
    return items;
  }

  /** Delivers as a network does: one ingest call per batch of up to 1,000 uplinks. */
  private async deliver(caller: IngestCaller, items: RestUplink[]): Promise<number> {
    let accepted = 0;
    for (let i = 0; i < items.length; i += MAX_INGEST_ITEMS) {
      const result = await this.ingest.rest(caller, items.slice(i, i + MAX_INGEST_ITEMS));
      accepted += result.accepted;
      for (const r of result.rejected) this.logger.warn(`demo uplink ${i + r.index} of ${r.devEUI} was rejected: ${r.code} ${r.message}`);
    }
    return accepted;
  }

  /** The local capture time of a photo as a UTC instant, always in the past. */
  private captureTime(p: { daysBack: number; localHour: number }, now: Date): Date {
    const offset = DEMO_UTC_OFFSET_HOURS * 3_600_000;
    const localMidnight = Math.floor((now.getTime() + offset) / 86_400_000) * 86_400_000;
    return new Date(localMidnight - p.daysBack * 86_400_000 + Math.round(p.localHour * 3600) * 1000 - offset);
  }

  /** Uploads the camera trap's photos (the worker makes the thumbnails) and annotates them. */
  private async photos(principal: AuthPrincipal, now: Date): Promise<number> {
    const eui = DEMO_DEVICES.cameraTrap.eui as Eui;
    const [lat, lon] = DEMO_DEVICES.cameraTrap.installedAt;
    // Rendered side by side: sharp works off the event loop, and start-up waits for this.
    const rendered = await Promise.all(DEMO_PHOTOS.map((spec, i) => renderDemoPhoto(spec, this.captureTime(spec, now), DEMO_UTC_OFFSET_HOURS, spec.temperature, 200 + i)));
    for (const [i, photo] of rendered.entries()) {
      const takenAt = this.captureTime(DEMO_PHOTOS[i], now);
      const filename = `IMG_${String(213 + i).padStart(4, '0')}.JPG`;
      const file: Express.Multer.File = {
        fieldname: 'file',
        originalname: filename,
        encoding: '7bit',
        mimetype: 'image/jpeg',
        size: photo.bytes.length,
        buffer: photo.bytes,
        stream: Readable.from(photo.bytes),
        destination: '',
        filename: '',
        path: '',
      };
      const { detail } = await this.images.uploadAsUser(principal, eui, file, { ts_photo_unix: Math.floor(takenAt.getTime() / 1000), lat, lon, filename });
      await this.images.annotate(principal, eui, detail.hash, [photo.annotation]);
    }
    return DEMO_PHOTOS.length;
  }

  /**
   * Commands in the states a real account shows: some left to the worker (Scheduled on the
   * simulated network), others moved on by The Things Stack's downlink events naming our
   * correlation id (Sent, Acknowledged, Failed).
   */
  private async sendCommands(principal: AuthPrincipal, caller: IngestCaller, fresh: ReadonlySet<DemoKey>): Promise<number> {
    let created = 0;
    const create = async (key: DemoKey, dto: CreateCommandDto) => {
      created++;
      return (await this.commands.create(principal, DEMO_DEVICES[key].eui as Eui, dto)).uid;
    };
    const event = async (uid: number, body: Record<string, unknown>) => {
      await this.events.tts(caller, { correlation_ids: [`dts:command:${uid}`], received_at: new Date().toISOString(), ...body });
    };

    if (fresh.has('patrolBike')) {
      const interval = await create('patrolBike', { command: 'set_interval', params: { seconds: TEN_MINUTES }, confirmed: true });
      await event(interval, { downlink_sent: { f_port: 10 } });
      await event(interval, { downlink_ack: { f_port: 10 } });
      await event(await create('patrolBike', { command: 'request_position' }), { downlink_sent: { f_port: 10 } });
    }
    if (fresh.has('cameraTrap')) {
      const nightMode = await create('cameraTrap', { command: 'set_night_mode', params: { enabled: true }, confirmed: true });
      await event(nightMode, {
        downlink_failed: { downlink: { f_port: 10, correlation_ids: [`dts:command:${nightMode}`] }, error: { namespace: 'pkg/networkserver', name: 'no_rx_window', message_format: 'no downlink window: the device did not open a receive window in time' } },
      });
      await create('cameraTrap', { command: 'take_photo' });
    }
    if (fresh.has('meadow')) {
      // The worker takes a command within moments of its creation, so none is left Created to cancel.
      await create('meadow', { command: 'set_interval', params: { seconds: QUARTER_HOUR } });
    }
    return created;
  }

  private async fence(principal: AuthPrincipal): Promise<void> {
    if ((await this.fences.list(principal)).some((f) => f.name === DEMO_FENCE_NAME)) return;
    await this.fences.create(principal, { name: DEMO_FENCE_NAME, geometry: { type: 'Polygon', coordinates: [routeBoundingRing(DEMO_ROUTE, 120)] } });
  }
}
