import type { CommandStatus } from '../../wire/command';
import type { Delivery, DownlinkEvent } from '../network';
import { eui, isObj, type Obj, optNumber, optString, time } from '../read';
import { onWholeMessage } from '../events';
import { textOf } from '../../text';

const DOWNLINK_STATUS: Readonly<Record<string, CommandStatus>> = {
  downlink_sent: 'Sent',
  downlink_ack: 'Acknowledged',
  downlink_nack: 'Failed',
  downlink_failed: 'Failed',
};

/**
 * Every message member an application webhook may carry (TTS `ApplicationUp`: exactly one per body),
 * and what each is to the service.
 */
export const TTS_MESSAGES = [
  'uplink_message',
  'uplink_normalized',
  'join_accept',
  'downlink_queued',
  'downlink_sent',
  'downlink_ack',
  'downlink_nack',
  'downlink_failed',
  'downlink_queue_invalidated',
  'location_solved',
  'service_data',
] as const;
export type TtsMessage = (typeof TTS_MESSAGES)[number];

/** The correlation id our downlinks carry through The Things Stack (see downlink.ts). */
export const correlationId = (commandUid: number) => `dts:command:${commandUid}`;
const CORRELATION = /^dts:command:(\d{1,10})$/;

/** The message member of a webhook body, or null when it has none The Things Stack sends. */
export function ttsMessageOf(body: Obj): TtsMessage | null {
  return TTS_MESSAGES.find((k) => isObj(body[k])) ?? null;
}

/** The uplink's `as:up:` correlation id: the network's id of the message (also on events about that uplink). */
export function uplinkCorrelation(root: Obj): string | null {
  const ids = Array.isArray(root.correlation_ids) ? root.correlation_ids : [];
  return ids.find((c): c is string => typeof c === 'string' && c.startsWith('as:up:')) ?? null;
}

/**
 * A downlink event of the application's webhook (downlink_sent, _ack, _nack, _failed): the
 * correlation id we gave the downlink comes back in it, at the top or inside the event. A downlink
 * that is not ours (another application's, or one queued in the console) names no command.
 */
export function readTtsDownlinkEvent(root: Obj, key: string): DownlinkEvent {
  const event = isObj(root[key]) ? root[key] : {};
  const ids = [root.correlation_ids, event.correlation_ids, isObj(event.downlink) ? event.downlink.correlation_ids : undefined].flatMap((v) =>
    Array.isArray(v) ? v : [],
  );
  const ours = ids.map((c) => (typeof c === 'string' ? CORRELATION.exec(c) : null)).find(Boolean);
  const error = isObj(event.error) ? textOf(event.error.message_format ?? event.error.name ?? 'the network failed the downlink') : null;
  const reason = key === 'downlink_nack' ? 'the device did not acknowledge (nack)' : key === 'downlink_failed' ? error : null;
  // Callers pass only keys of DOWNLINK_STATUS.
  return { command: ours ? { uid: Number(ours[1]) } : null, status: DOWNLINK_STATUS[key]!, reason };
}

export const isTtsDownlinkStatus = (key: string) => key in DOWNLINK_STATUS;

/**
 * The messages that are neither uplinks nor a downlink's status: a join moves the device's activity,
 * a solved location the network position of the uplink it was solved from; the rest is acknowledged.
 */
export function readTtsOtherMessage(root: Obj, key: TtsMessage, now: Date): Delivery {
  return onWholeMessage(() => {
    const message = root[key] as Obj;
    const ids = isObj(root.end_device_ids) ? root.end_device_ids : {};
    const devEUI = ids.dev_eui === undefined ? null : eui(ids.dev_eui, 'end_device_ids.dev_eui');
    if (key === 'downlink_queued') {
      return { notice: { type: key, devEUI, action: 'acknowledged: the network queued a downlink (a command of ours is Scheduled once queued)' } };
    }
    if (key === 'downlink_queue_invalidated') {
      return { notice: { type: key, devEUI, action: 'acknowledged: the network re-queues the downlinks of a new session itself' } };
    }
    if (key === 'service_data') {
      const service = optString(message.service, 'service_data.service') ?? 'a service';
      return { notice: { type: key, devEUI, action: `acknowledged: data of ${service} is not stored` } };
    }
    if (devEUI === null) return { notice: { type: key, devEUI, action: 'acknowledged: the message names no dev_eui, nothing was recorded' } };
    if (key === 'join_accept') {
      const at = time(message.received_at ?? root.received_at, 'join_accept.received_at', now);
      return { device: { type: key, devEUI, at, kind: 'activity' } };
    }
    // location_solved
    const location = isObj(message.location) ? message.location : {};
    const lat = optNumber(location.latitude, 'location_solved.location.latitude', -90, 90);
    const lon = optNumber(location.longitude, 'location_solved.location.longitude', -180, 180);
    if (lat === null || lon === null) {
      return { notice: { type: key, devEUI, action: 'acknowledged: the solved location has no latitude and longitude' } };
    }
    const alt = optNumber(location.altitude, 'location_solved.location.altitude', -20_000, 100_000);
    const at = time(root.received_at, 'received_at', now);
    return { device: { type: key, devEUI, at, kind: 'position', messageId: uplinkCorrelation(root), position: { lat, lon, alt } } };
  });
}
