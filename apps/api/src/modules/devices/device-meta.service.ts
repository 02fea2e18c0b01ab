import { Injectable } from '@nestjs/common';
import type { DeviceMetaWire, Eui } from '@dts/domain';
import { DevicesRepository, type WritableMetaColumn } from '@dts/persistence';
import { JobQueue } from '@dts/platform';
import type { AuthPrincipal } from '../../common/auth/auth-principal';
import { ApiException } from '../../common/http/api.exception';
import { DeviceAccessService } from './device-access.service';
import { DeviceHandoversService } from './device-handovers.service';
import { toDeviceMetaWire } from './device.mapper';
import type { DeviceMetaUpdateDto } from './dto/device-meta-update.dto';

@Injectable()
export class DeviceMetaService {
  constructor(
    private readonly devices: DevicesRepository,
    private readonly access: DeviceAccessService,
    private readonly jobs: JobQueue,
    private readonly handovers: DeviceHandoversService,
  ) {}

  async all(principal: AuthPrincipal): Promise<DeviceMetaWire[]> {
    return (await this.devices.metaRows(principal.accountId)).map(toDeviceMetaWire);
  }

  async one(principal: AuthPrincipal, eui: Eui): Promise<DeviceMetaWire[]> {
    const rows = await this.devices.metaRows(principal.accountId, eui);
    if (rows.length === 0) throw ApiException.notFound('device', 'eui');
    return rows.map(toDeviceMetaWire);
  }

  async update(principal: AuthPrincipal, eui: Eui, dto: DeviceMetaUpdateDto): Promise<DeviceMetaWire[]> {
    const given = Object.keys(dto).filter((k) => (dto as Record<string, unknown>)[k] !== undefined) as (keyof DeviceMetaUpdateDto)[];
    if (given.length === 0) throw ApiException.validation('body', 'name at least one member to update');
    const ownerOnly = given.filter((k) => k === 'owner_ref' || k === 'user_ref');
    const device = ownerOnly.length > 0 ? await this.access.requireOwner(principal, eui, ownerOnly[0]) : await this.access.require(principal, eui);
    await this.access.checkReferences(device.ownerId, dto);
    for (const field of ownerOnly) {
      const id = dto[field];
      if (typeof id === 'number' && !(await this.devices.referenceExists('account', id, principal.accountId)))
        throw ApiException.validation(field, `account ${id} does not exist`);
    }

    // `owner_ref` offers the device to that account (or replaces the open offer): it moves when
    // the account accepts (POST /user/device/handover/{eui}/accept), never without its consent.
    if (dto.owner_ref !== undefined && dto.owner_ref !== device.ownerId) await this.handovers.offer(device, dto.owner_ref, 'owner_ref');
    const patch: Partial<Record<WritableMetaColumn, unknown>> = {};
    for (const key of given) if (key !== 'owner_ref') patch[key] = dto[key];
    await this.devices.updateMeta(device.uid, patch);
    if (dto.decoder_ref !== undefined && dto.decoder_ref !== device.decoderRef) {
      await this.jobs.enqueue('device.redecode', { deviceUid: device.uid, decoderRef: dto.decoder_ref });
    }
    return [toDeviceMetaWire((await this.devices.metaRowByUid(device.uid))!)];
  }
}
