import { Inject, Injectable } from '@nestjs/common';
import type { DeviceMetaWire, Eui, HandoverClosedWire, HandoverOffersWire, HandoverOfferWire } from '@dts/domain';
import { AccountsRepository, DeviceHandoversRepository, type DeviceAccess, DevicesRepository, type HandoverRow } from '@dts/persistence';
import { APP_CONFIG, type AppConfig, JobQueue } from '@dts/platform';
import type { AuthPrincipal } from '../../common/auth/auth-principal';
import { ApiException } from '../../common/http/api.exception';
import { DeviceAccessService } from './device-access.service';
import { toDeviceMetaWire } from './device.mapper';

export function toHandoverOfferWire(row: HandoverRow): HandoverOfferWire {
  return {
    devEUI: row.eui,
    label: row.label,
    from: { user_id: row.from_id, username: row.from_username },
    to: { user_id: row.to_id, username: row.to_username },
    created_unix: Math.floor(row.created_at.getTime() / 1000),
  };
}

/**
 * Hand-over of a device by consent (docs/api.md §4): the owner offers, the receiving account
 * accepts or declines, the owner may withdraw. Nothing moves, and nothing counts against the
 * receiver's `max_devices`, until it accepts.
 */
@Injectable()
export class DeviceHandoversService {
  constructor(
    private readonly handovers: DeviceHandoversRepository,
    private readonly devices: DevicesRepository,
    private readonly accounts: AccountsRepository,
    private readonly access: DeviceAccessService,
    private readonly jobs: JobQueue,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** By username (POST /user/device/handover/{eui}). */
  async offerTo(principal: AuthPrincipal, eui: Eui, username: string): Promise<HandoverOfferWire> {
    const device = await this.access.requireOwner(principal, eui);
    const target = await this.accounts.findByUsername(username);
    if (!target) throw ApiException.notFound('account', 'username');
    return this.offer(device, target.id, 'username');
  }

  /** Makes or replaces the device's offer; the caller owns the device (already checked). */
  async offer(device: DeviceAccess, toAccount: number, field: string): Promise<HandoverOfferWire> {
    if (toAccount === device.ownerId) throw ApiException.validation(field, 'the device is already this account’s');
    await this.handovers.offer(device.uid, device.ownerId, toAccount);
    return toHandoverOfferWire((await this.handovers.byDevice(device.eui))!);
  }

  async list(principal: AuthPrincipal): Promise<HandoverOffersWire> {
    const { received, made } = await this.handovers.forAccount(principal.accountId);
    return { received: received.map(toHandoverOfferWire), made: made.map(toHandoverOfferWire) };
  }

  /** The receiver takes the device: 404 without an offer to it, 403 at its device limit. */
  async accept(principal: AuthPrincipal, eui: Eui): Promise<DeviceMetaWire> {
    const result = await this.handovers.accept(eui, principal.accountId);
    if (!result.ok) {
      if (result.reason === 'limit') throw ApiException.of('DEVICE_LIMIT_REACHED', 'this account holds as many devices as it may', 'eui');
      throw ApiException.notFound('hand-over offer', 'eui');
    }
    // A codec of the previous owner's fell back to the default decoder: the history is decoded again.
    if (result.decoderChanged) {
      const row = (await this.devices.metaRowByUid(result.deviceUid))!;
      await this.jobs.enqueue('device.redecode', { deviceUid: result.deviceUid, decoderRef: row.decoder_ref });
    }
    return toDeviceMetaWire((await this.devices.metaRowByUid(result.deviceUid))!, this.config.timeseries.uplinkRetentionDays);
  }

  async decline(principal: AuthPrincipal, eui: Eui): Promise<HandoverClosedWire> {
    if (!(await this.handovers.close(eui, principal.accountId, 'to'))) throw ApiException.notFound('hand-over offer', 'eui');
    return { devEUI: eui, outcome: 'declined' };
  }

  async withdraw(principal: AuthPrincipal, eui: Eui): Promise<HandoverClosedWire> {
    await this.access.requireOwner(principal, eui);
    if (!(await this.handovers.close(eui, principal.accountId, 'from'))) throw ApiException.notFound('hand-over offer', 'eui');
    return { devEUI: eui, outcome: 'withdrawn' };
  }
}
