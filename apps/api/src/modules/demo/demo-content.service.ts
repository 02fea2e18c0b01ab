import { Injectable, Logger } from '@nestjs/common';
import { correlationId, type Eui, MAX_INGEST_ITEMS, REST, THE_THINGS_STACK } from '@dts/domain';
import {
  captureTime,
  DEMO_DEVICES,
  DEMO_FENCE_NAME,
  DEMO_FOLDER,
  DEMO_PHOTOS,
  DEMO_ROUTE,
  DEMO_UTC_OFFSET_HOURS,
  type DemoDevice,
  type DemoKey,
  demoUplinks,
  QUARTER_HOUR,
  renderDemoPhoto,
  type RestUplink,
  routeBoundingRing,
  TEN_MINUTES,
} from '@dts/demo';
import { Readable } from 'node:stream';
import type { AuthPrincipal } from '../../common/auth/auth-principal';
import type { IngestCaller } from '../../common/auth/ingest-caller';
import { ApiException } from '../../common/http/api.exception';
import { CommandsService } from '../commands/commands.service';
import type { CreateCommandDto } from '../commands/dto/create-command.dto';
import { DeviceMetaService } from '../devices/device-meta.service';
import { DevicesService } from '../devices/devices.service';
import { FencesService } from '../fences/fences.service';
import { ImagesService } from '../images/images.service';
import { IngestService } from '../ingest/ingest.service';

export interface DemoSeedResult {
  /** Devices registered (and filled) by this run; the others were there already and were left alone. */
  seeded: string[];
  uplinks: number;
  images: number;
  commands: number;
}

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
    private readonly fences: FencesService,
  ) {}

  async seed(principal: AuthPrincipal, now = new Date()): Promise<DemoSeedResult> {
    const fresh = new Set<DemoKey>();
    for (const key of Object.keys(DEMO_DEVICES) as DemoKey[]) if (await this.register(principal, DEMO_DEVICES[key])) fresh.add(key);
    const caller: IngestCaller = { accountId: principal.accountId, tokenUid: principal.tokenUid };
    const uplinks = await this.deliver(caller, demoUplinks(fresh, now));
    const images = fresh.has('cameraTrap') ? await this.photos(principal, now) : 0;
    const commands = await this.sendCommands(principal, caller, fresh);
    await this.fence(principal);
    return { seeded: [...fresh].map((k) => DEMO_DEVICES[k].eui), uplinks, images, commands };
  }

  /** True when this call registered the device; false when it was there already. */
  private async register(principal: AuthPrincipal, d: DemoDevice): Promise<boolean> {
    const eui = d.eui as Eui;
    try {
      await this.devices.register(principal, eui, {
        label: d.label,
        type_ref: d.typeRef,
        decoder_ref: d.decoderRef,
        icon_ref: d.iconRef,
        folder: DEMO_FOLDER,
        tags: { demo: true },
      });
    } catch (error) {
      const code = error instanceof ApiException ? error.entries[0]?.code : null;
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

  /** Delivers as a network does: one ingest call per batch of up to 1,000 uplinks. */
  private async deliver(caller: IngestCaller, items: RestUplink[]): Promise<number> {
    let accepted = 0;
    for (let i = 0; i < items.length; i += MAX_INGEST_ITEMS) {
      const result = await this.ingest.deliver(REST, caller, items.slice(i, i + MAX_INGEST_ITEMS));
      accepted += result.accepted;
      for (const r of result.rejected) this.logger.warn(`demo uplink ${i + r.index} of ${r.devEUI} was rejected: ${r.code} ${r.message}`);
    }
    return accepted;
  }

  /** Uploads the camera trap's photos (the worker makes the thumbnails) and annotates them. */
  private async photos(principal: AuthPrincipal, now: Date): Promise<number> {
    const eui = DEMO_DEVICES.cameraTrap.eui as Eui;
    const [lat, lon] = DEMO_DEVICES.cameraTrap.installedAt;
    // Rendered side by side: sharp works off the event loop, and start-up waits for this.
    const rendered = await Promise.all(
      DEMO_PHOTOS.map(async (spec, i) => {
        const takenAt = captureTime(spec, now);
        return { takenAt, photo: await renderDemoPhoto(spec, takenAt, DEMO_UTC_OFFSET_HOURS, spec.temperature, 200 + i) };
      }),
    );
    for (const [i, { takenAt, photo }] of rendered.entries()) {
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
      await this.ingest.deliver(THE_THINGS_STACK, caller, { correlation_ids: [correlationId(uid)], received_at: new Date().toISOString(), ...body });
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
        downlink_failed: {
          downlink: { f_port: 10, correlation_ids: [correlationId(nightMode)] },
          error: {
            namespace: 'pkg/networkserver',
            name: 'no_rx_window',
            message_format: 'no downlink window: the device did not open a receive window in time',
          },
        },
      });
      await create('cameraTrap', { command: 'take_photo' });
    }
    if (fresh.has('meadow')) {
      // Queued on the simulated network until the station's next uplink (class A): cancellable until then.
      await create('meadow', { command: 'set_interval', params: { seconds: QUARTER_HOUR } });
    }
    return created;
  }

  private async fence(principal: AuthPrincipal): Promise<void> {
    if ((await this.fences.list(principal)).some((f) => f.name === DEMO_FENCE_NAME)) return;
    await this.fences.create(principal, { name: DEMO_FENCE_NAME, geometry: { type: 'Polygon', coordinates: [routeBoundingRing(DEMO_ROUTE, 120)] } });
  }
}
