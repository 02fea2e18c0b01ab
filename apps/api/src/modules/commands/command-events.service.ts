import { Injectable } from '@nestjs/common';
import type { CommandStatus, IngestResultWire } from '@dts/domain';
import { CommandsRepository } from '@dts/persistence';
import { ApiException } from '../../common/http/api.exception';
import type { IngestCaller } from '../ingest/ingest.service';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

const TTS_EVENTS: Record<string, CommandStatus> = {
  downlink_sent: 'Sent',
  downlink_ack: 'Acknowledged',
  downlink_nack: 'Failed',
  downlink_failed: 'Failed',
};

/**
 * Downlink events from the networks move commands on: ChirpStack names the queue item it returned,
 * The Things Stack returns our correlation id. A status never moves back; an event for a command
 * already past it counts as a duplicate.
 */
@Injectable()
export class CommandEventsService {
  constructor(private readonly commands: CommandsRepository) {}

  /** Whether the TTS webhook body is a downlink event (rather than an uplink). */
  isTtsDownlinkEvent(body: unknown): boolean {
    return isObj(body) && Object.keys(TTS_EVENTS).some((k) => k in body);
  }

  async tts(req: IngestCaller, body: unknown): Promise<IngestResultWire> {
    const root = body as Obj;
    const key = Object.keys(TTS_EVENTS).find((k) => k in root)!;
    const event = isObj(root[key]) ? (root[key] as Obj) : {};
    const ids = [root.correlation_ids, event.correlation_ids, isObj(event.downlink) ? event.downlink.correlation_ids : undefined].flatMap((v) => (Array.isArray(v) ? v : []));
    const ours = ids.map((c) => (typeof c === 'string' ? /^dts:command:(\d{1,10})$/.exec(c) : null)).find(Boolean);
    const error = isObj(event.error) ? String(event.error.message_format ?? event.error.name ?? 'the network failed the downlink') : null;
    const reason = key === 'downlink_nack' ? 'the device did not acknowledge (nack)' : key === 'downlink_failed' ? error : null;
    return this.apply(req, ours ? { uid: Number(ours[1]) } : null, TTS_EVENTS[key], reason);
  }

  async chirpstack(req: IngestCaller, event: 'txack' | 'ack', body: unknown): Promise<IngestResultWire> {
    const root = isObj(body) ? body : {};
    const queueItemId = typeof root.queueItemId === 'string' && root.queueItemId ? root.queueItemId : null;
    if (event === 'txack') return this.apply(req, queueItemId ? { networkId: queueItemId } : null, 'Sent', null);
    const acknowledged = root.acknowledged === true;
    return this.apply(req, queueItemId ? { networkId: queueItemId } : null, acknowledged ? 'Acknowledged' : 'Failed', acknowledged ? null : 'the device did not acknowledge');
  }

  private async apply(req: IngestCaller, by: { uid: number } | { networkId: string } | null, status: CommandStatus, reason: string | null): Promise<IngestResultWire> {
    if (!by) throw ApiException.validation('body', 'the event names no command of this service (queueItemId / correlation id dts:command:<uid>)');
    const uid = await this.commands.findForEvent(by, req.ingestSecret ? null : req.auth!.accountId);
    if (uid === null) return { accepted: 0, duplicates: 0, rejected: [{ index: 0, devEUI: null, code: 'NOT_FOUND', message: 'no such command' }] };
    const moved = await this.commands.advance(uid, status, { reason });
    return { accepted: moved ? 1 : 0, duplicates: moved ? 0 : 1, rejected: [] };
  }
}
