import { Inject, Injectable } from '@nestjs/common';
import {
  AUTOCOMPLETE_LIMIT,
  DEFAULT_DECODER_REF,
  DEFAULT_NETWORK_REF,
  type DeviceMetaWire,
  type DeviceRelationWire,
  type DeviceRemovedWire,
  type Eui,
  formatDate,
} from '@dts/domain';
import { AccountsRepository, DeviceRegistrationRepository, DevicesRepository, ImagesRepository } from '@dts/persistence';
import { APP_CONFIG, type AppConfig, JobQueue } from '@dts/platform';
import type { AuthPrincipal } from '../../common/auth/auth-principal';
import { ApiException } from '../../common/http/api.exception';
import { DeviceAccessService } from './device-access.service';
import { toDeviceMetaWire } from './device.mapper';
import type { AutocompleteQueryDto } from './dto/autocomplete-query.dto';
import type { RegisterDeviceDto } from './dto/register-device.dto';

@Injectable()
export class DevicesService {
  constructor(
    private readonly devices: DevicesRepository,
    private readonly registration: DeviceRegistrationRepository,
    private readonly accounts: AccountsRepository,
    private readonly access: DeviceAccessService,
    private readonly images: ImagesRepository,
    private readonly jobs: JobQueue,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  list(principal: AuthPrincipal): Promise<string[]> {
    return this.devices.listEuis(principal.accountId);
  }

  autocomplete(principal: AuthPrincipal, query: AutocompleteQueryDto): Promise<string[]> {
    return this.devices.autocomplete(principal.accountId, query.q ?? query.query ?? query.term ?? '', AUTOCOMPLETE_LIMIT);
  }

  async register(principal: AuthPrincipal, eui: Eui, dto: RegisterDeviceDto): Promise<DeviceMetaWire> {
    const account = await this.accounts.findById(principal.accountId);
    if (!account) throw ApiException.of('AUTH_REQUIRED', 'the account no longer exists');
    if (account.expiresOn < formatDate(new Date())) throw ApiException.of('ACCOUNT_EXPIRED', `the account expired on ${account.expiresOn}`);
    await this.access.checkReferences(principal.accountId, dto);
    const result = await this.registration.register(principal.accountId, account.maxDevices, {
      eui,
      label: dto.label ?? eui,
      folder: dto.folder ?? null,
      tags: dto.tags ?? null,
      typeRef: dto.type_ref ?? null,
      decoderRef: dto.decoder_ref === undefined ? DEFAULT_DECODER_REF : dto.decoder_ref,
      networkRef: dto.network_ref === undefined ? DEFAULT_NETWORK_REF : dto.network_ref,
      iconRef: dto.icon_ref ?? null,
    });
    if (!result.ok) {
      switch (result.reason) {
        case 'exists':
          throw ApiException.of('DEVICE_EXISTS', 'the device is already registered on this account', 'eui');
        case 'owned-elsewhere':
          throw ApiException.of('DEVICE_OWNED_ELSEWHERE', 'the device is registered on another account', 'eui');
        case 'limit':
          throw ApiException.of('DEVICE_LIMIT_REACHED', `the account may hold at most ${account.maxDevices} devices`);
      }
    }
    const row = await this.devices.metaRowByUid(result.uid);
    return toDeviceMetaWire(row!, this.config.timeseries.uplinkRetentionDays);
  }

  /**
   * The owner's delete removes the device from every listing at once and has the worker purge its
   * history; a user the device is shared with only loses the association.
   */
  async remove(principal: AuthPrincipal, eui: Eui): Promise<DeviceRemovedWire> {
    const device = await this.access.require(principal, eui);
    if (device.relation === 'owner') {
      await this.devices.softDelete(device.uid);
      // Its images go with it at once: a device registered again under this EUI starts with none.
      await this.jobs.enqueueMany(
        'image.purge',
        (await this.images.retire({ deviceUid: device.uid })).map((imageUid) => ({ imageUid })),
      );
      await this.jobs.enqueue('device.purge', { deviceUid: device.uid }, { jobId: `device.purge-${device.uid}` });
    } else {
      await this.devices.unshare(device.uid, principal.accountId);
    }
    return { devEUI: device.eui, removed: true };
  }

  async relation(principal: AuthPrincipal, eui: Eui, accountId: number): Promise<DeviceRelationWire> {
    const device = await this.access.require(principal, eui);
    return { result: await this.devices.relationOf(device.uid, accountId) };
  }
}
