import { Inject, Injectable } from '@nestjs/common';
import { type DeviceMetaWire, deviceRetentionAllowed, type Eui } from '@dts/domain';
import { type DeviceAccess, type DeviceMetaRow, DevicesRepository, RetentionRepository, type WritableMetaColumn } from '@dts/persistence';
import { APP_CONFIG, type AppConfig, JobQueue } from '@dts/platform';
import type { AuthPrincipal } from '../../common/auth/auth-principal';
import { ApiException } from '../../common/http/api.exception';
import { DeviceAccessService } from './device-access.service';
import { DeviceHandoversService } from './device-handovers.service';
import { toDeviceMetaWire } from './device.mapper';
import type { DeviceMetaUpdateDto } from './dto/device-meta-update.dto';

/** Members only the device's owner may set: a shared user gets 403 naming the first it gave. */
const OWNER_ONLY = ['owner_ref', 'user_ref', 'uplink_retention_days'] as const satisfies readonly (keyof DeviceMetaUpdateDto)[];

@Injectable()
export class DeviceMetaService {
  constructor(
    private readonly devices: DevicesRepository,
    private readonly access: DeviceAccessService,
    private readonly jobs: JobQueue,
    private readonly handovers: DeviceHandoversService,
    private readonly retention: RetentionRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  private wire(row: DeviceMetaRow): DeviceMetaWire {
    return toDeviceMetaWire(row, this.config.timeseries.uplinkRetentionDays);
  }

  async all(principal: AuthPrincipal): Promise<DeviceMetaWire[]> {
    return (await this.devices.metaRows(principal.accountId)).map((row) => this.wire(row));
  }

  async one(principal: AuthPrincipal, eui: Eui): Promise<DeviceMetaWire[]> {
    const rows = await this.devices.metaRows(principal.accountId, eui);
    if (rows.length === 0) throw ApiException.notFound('device', 'eui');
    return rows.map((row) => this.wire(row));
  }

  async update(principal: AuthPrincipal, eui: Eui, dto: DeviceMetaUpdateDto): Promise<DeviceMetaWire[]> {
    const given = Object.keys(dto).filter((k) => (dto as Record<string, unknown>)[k] !== undefined) as (keyof DeviceMetaUpdateDto)[];
    if (given.length === 0) throw ApiException.validation('body', 'name at least one member to update');
    const ownerOnly = given.filter((k): k is (typeof OWNER_ONLY)[number] => (OWNER_ONLY as readonly string[]).includes(k));
    const device = ownerOnly.length > 0 ? await this.access.requireOwner(principal, eui, ownerOnly[0]) : await this.access.require(principal, eui);
    await this.access.checkReferences(device.ownerId, dto);
    for (const field of ['owner_ref', 'user_ref'] as const) {
      const id = dto[field];
      if (typeof id === 'number' && !(await this.devices.referenceExists('account', id, principal.accountId)))
        throw ApiException.validation(field, `account ${id} does not exist`);
    }
    if (typeof dto.uplink_retention_days === 'number') await this.checkRetention(device, dto.uplink_retention_days);

    // `owner_ref` offers the device to that account (or replaces the open offer): it moves when
    // the account accepts (POST /user/device/handover/{eui}/accept), never without its consent.
    if (dto.owner_ref !== undefined && dto.owner_ref !== device.ownerId) await this.handovers.offer(device, dto.owner_ref, 'owner_ref');
    const patch: Partial<Record<WritableMetaColumn, unknown>> = {};
    for (const key of given) if (key !== 'owner_ref') patch[key] = dto[key];
    await this.devices.updateMeta(device.uid, patch);
    if (dto.decoder_ref !== undefined && dto.decoder_ref !== device.decoderRef) {
      await this.jobs.enqueue('device.redecode', { deviceUid: device.uid, decoderRef: dto.decoder_ref });
    }
    return [this.wire((await this.devices.metaRowByUid(device.uid))!)];
  }

  /**
   * A device's own retention may only shorten its account's in force. An administrator may shorten
   * the account's later: the device's value then counts only where it is still the shorter.
   */
  private async checkRetention(device: DeviceAccess, days: number): Promise<void> {
    const accountDays = (await this.retention.ofDevice(device.uid))?.accountDays ?? null;
    if (!deviceRetentionAllowed(days, accountDays))
      throw ApiException.validation('uplink_retention_days', `a device may only shorten its account’s retention of ${accountDays} days`);
  }
}
