import { Injectable } from '@nestjs/common';
import type { DownlinkEvent, IngestResultWire } from '@dts/domain';
import { CommandsRepository } from '@dts/persistence';
import type { IngestCaller } from '../../common/auth/ingest-caller';

/**
 * Downlink events from the networks (read by each network's definition) move commands on. A status
 * never moves back; an event for a command already past it counts as a duplicate. An account's
 * token finds only that account's commands.
 */
@Injectable()
export class DownlinkEventsService {
  constructor(private readonly commands: CommandsRepository) {}

  async apply(caller: IngestCaller, event: DownlinkEvent): Promise<IngestResultWire> {
    // A downlink another application queued (no correlation id of ours) is as unknown as a command of another account.
    const uid = event.command === null ? null : await this.commands.findForEvent(event.command, caller.accountId);
    if (uid === null) return { accepted: 0, duplicates: 0, rejected: [{ index: 0, devEUI: null, code: 'NOT_FOUND', message: 'no such command' }] };
    const moved = await this.commands.advance(uid, event.status, { reason: event.reason });
    return { accepted: moved ? 1 : 0, duplicates: moved ? 0 : 1, rejected: [] };
  }
}
