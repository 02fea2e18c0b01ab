import { Injectable } from '@nestjs/common';
import type { DeviceShareEntryWire, DeviceShareWire, DeviceUnsharedWire, Eui } from '@dts/domain';
import { AccountsRepository, DevicesRepository } from '@dts/persistence';
import type { AuthPrincipal } from '../../common/auth/auth-principal';
import { ApiException } from '../../common/http/api.exception';
import { DeviceAccessService } from './device-access.service';

@Injectable()
export class DeviceSharesService {
  constructor(
    private readonly devices: DevicesRepository,
    private readonly accounts: AccountsRepository,
    private readonly access: DeviceAccessService,
  ) {}

  /** Owner only: who else reads the device. */
  async list(principal: AuthPrincipal, eui: Eui): Promise<DeviceShareEntryWire[]> {
    const device = await this.access.requireOwner(principal, eui);
    return this.devices.shares(device.uid);
  }

  /** Owner only; sharing again with the same account changes nothing. */
  async share(principal: AuthPrincipal, eui: Eui, username: string): Promise<DeviceShareWire> {
    const device = await this.access.requireOwner(principal, eui);
    const target = await this.accounts.findByUsername(username);
    if (!target) throw ApiException.notFound('account', 'username');
    if (target.id === device.ownerId) throw ApiException.validation('username', 'the owner already has the device');
    await this.devices.share(device.uid, target.id);
    return { devEUI: device.eui, user_id: target.id, username: target.username };
  }

  /** The owner ends any share; a user the device is shared with may end only its own. */
  async unshare(principal: AuthPrincipal, eui: Eui, accountId: number): Promise<DeviceUnsharedWire> {
    const device = await this.access.require(principal, eui);
    if (device.relation !== 'owner' && accountId !== principal.accountId)
      throw ApiException.of('FORBIDDEN', 'only the owner may end another user’s share', 'uid');
    if (!(await this.devices.unshare(device.uid, accountId))) throw ApiException.notFound('share', 'uid');
    return { devEUI: device.eui, user_id: accountId, removed: true };
  }
}
