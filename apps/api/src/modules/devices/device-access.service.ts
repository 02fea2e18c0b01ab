import { Injectable } from '@nestjs/common';
import type { Eui } from '@dts/domain';
import { type DeviceAccess, DevicesRepository, type ReferenceKind } from '@dts/persistence';
import type { AuthPrincipal } from '../../common/auth/auth-principal';
import { ApiException } from '../../common/http/api.exception';

export type DeviceReferences = Partial<Record<'type_ref' | 'decoder_ref' | 'network_ref' | 'icon_ref', number | null>>;

/** Resolves a device for a caller, the one place that decides who may see a device. */
@Injectable()
export class DeviceAccessService {
  constructor(private readonly devices: DevicesRepository) {}

  /** The device when the caller owns it or it is shared with the caller; 404 otherwise, never 403. */
  async require(principal: AuthPrincipal, eui: Eui): Promise<DeviceAccess> {
    const device = await this.devices.accessible(principal.accountId, eui);
    if (!device) throw ApiException.notFound('device', 'eui');
    return device;
  }

  /** Like require, and the caller must be the owner: a user the device is shared with gets 403. */
  async requireOwner(principal: AuthPrincipal, eui: Eui, field?: string): Promise<DeviceAccess> {
    const device = await this.require(principal, eui);
    if (device.relation !== 'owner') throw ApiException.of('FORBIDDEN', 'only the device’s owner may do this', field);
    return device;
  }

  /**
   * Every datamodel reference given must exist, global or the device owner's own (networks,
   * codecs): a user the device is shared with may not point it at its own network or codec, which
   * would send the owner's downlinks through another account's network and decode its data with a
   * codec the owner cannot see.
   */
  async checkReferences(ownerId: number, refs: DeviceReferences): Promise<void> {
    const problems = [];
    for (const kind of ['type_ref', 'decoder_ref', 'network_ref', 'icon_ref'] as const) {
      const id = refs[kind];
      if (typeof id === 'number' && !(await this.devices.referenceExists(kind satisfies ReferenceKind, id, ownerId))) {
        problems.push({ code: 'VALIDATION_FAILED' as const, message: `${kind} ${id} does not exist`, field: kind });
      }
    }
    if (problems.length > 0) throw new ApiException(problems);
  }
}
