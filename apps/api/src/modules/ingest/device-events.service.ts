import { Injectable, Logger } from '@nestjs/common';
import type { DeviceEvent, IngestResultWire, Notice } from '@dts/domain';
import { DeviceEventsRepository, IngestRepository } from '@dts/persistence';

/**
 * The networks' messages that are neither uplinks nor a downlink's status (docs/api.md §5): a join
 * spans the device's activity, a status moves its battery level and link margin, a solved location the network
 * position of the uplink it was solved from; the rest is acknowledged, and a network's log about a
 * device is written to ours. Each answer says what was done (`event`). A device the caller cannot
 * write to is NOT_FOUND, as for uplinks.
 */
@Injectable()
export class DeviceEventsService {
  private readonly logger = new Logger('network-events');

  constructor(
    private readonly ingest: IngestRepository,
    private readonly devices: DeviceEventsRepository,
  ) {}

  async apply(event: DeviceEvent, ownerId: number | null): Promise<IngestResultWire> {
    const target = (await this.ingest.targets([event.devEUI], ownerId)).get(event.devEUI);
    if (!target) {
      return {
        accepted: 0,
        duplicates: 0,
        rejected: [{ index: 0, devEUI: event.devEUI, code: 'NOT_FOUND', message: 'no such device' }],
        event: { type: event.type, action: 'nothing recorded: no such device' },
      };
    }
    const answer = (action: string, accepted: 0 | 1 = 1): IngestResultWire => ({ accepted, duplicates: 0, rejected: [], event: { type: event.type, action } });
    switch (event.kind) {
      case 'activity':
        await this.devices.activity(target.uid, event.at);
        return answer('device activity times span the join');
      case 'status': {
        if (event.batteryPercent === null && event.marginDb === null)
          return answer('acknowledged: no battery level (external power or unavailable) and no link margin', 0);
        await this.devices.status(target.uid, event.at, { batteryPercent: event.batteryPercent, marginDb: event.marginDb });
        const offered = [
          event.batteryPercent === null ? null : `battery_percent ${event.batteryPercent}`,
          event.marginDb === null ? null : `margin_db ${event.marginDb}`,
        ].filter((x) => x !== null);
        return answer(
          `${offered.join(' and ')} offered to the device${event.batteryPercent === null ? ' (no battery level: external power or unavailable)' : ''}`,
        );
      }
      case 'position': {
        const placed = await this.devices.networkPosition(target.uid, event.messageId, event.position);
        if (placed) return answer(event.messageId ? `network position set on uplink ${event.messageId}` : 'network position set on the device’s latest uplink');
        return answer(event.messageId ? `nothing recorded: no stored uplink ${event.messageId}` : 'nothing recorded: the device has no uplink', 0);
      }
    }
  }

  notice(notice: Notice): IngestResultWire {
    if (notice.log?.level === 'error') this.logger.error(notice.log.message);
    else if (notice.log?.level === 'warn') this.logger.warn(notice.log.message);
    else if (notice.log) this.logger.log(notice.log.message);
    return { accepted: 0, duplicates: 0, rejected: [], event: { type: notice.type, action: notice.action } };
  }
}
