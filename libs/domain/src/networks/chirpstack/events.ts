import { DeliveryError, type Delivery, type DownlinkEvent, type Notice } from '../network';
import { onWholeMessage } from '../events';
import { eui, isObj, obj, type Obj, optNumber, optString, time } from '../read';

/** Every event ChirpStack v4's HTTP integration posts (`?event=`); `integration` only by older v4 servers, JSON only. */
export const CHIRPSTACK_EVENTS = ['up', 'status', 'join', 'ack', 'txack', 'log', 'location', 'integration'] as const;
export type ChirpstackEvent = (typeof CHIRPSTACK_EVENTS)[number];

export const isChirpstackEvent = (v: unknown): v is ChirpstackEvent => typeof v === 'string' && (CHIRPSTACK_EVENTS as readonly string[]).includes(v);

/**
 * ChirpStack v4 `txack` (the gateway sent it) and `ack` (the device answered a confirmed downlink,
 * or did not): both name the queue item its queue API returned for our downlink.
 */
export function readChirpstackDownlinkEvent(event: 'txack' | 'ack', body: unknown): DownlinkEvent {
  const root = isObj(body) ? body : {};
  const queueItemId = typeof root.queueItemId === 'string' && root.queueItemId ? root.queueItemId : null;
  if (!queueItemId) throw new DeliveryError('queueItemId', 'queueItemId is required: the event names no queued downlink');
  if (event === 'txack') return { command: { networkId: queueItemId }, status: 'Sent', reason: null };
  const acknowledged = root.acknowledged === true;
  return {
    command: { networkId: queueItemId },
    status: acknowledged ? 'Acknowledged' : 'Failed',
    reason: acknowledged ? null : 'the device did not acknowledge',
  };
}

/** ChirpStack's log levels, as the service's log writes them. */
const LOG_LEVELS: Readonly<Record<string, NonNullable<Notice['log']>['level']>> = { INFO: 'info', WARNING: 'warn', ERROR: 'error' };

/**
 * The events that are neither uplinks nor a downlink's status: `join` moves the device's activity,
 * `status` its battery level and link margin, `location` the network position of the uplink it was
 * solved from (the same `deduplicationId`), `log` is written to the service's log, `integration`
 * acknowledged.
 */
export function readChirpstackOtherEvent(event: 'status' | 'join' | 'log' | 'location' | 'integration', body: unknown, now: Date): Delivery {
  return onWholeMessage((): Delivery => {
    const root: Obj = obj(body, 'body');
    const info = obj(root.deviceInfo, 'deviceInfo');
    const devEUI = info.devEui === undefined ? null : eui(info.devEui, 'deviceInfo.devEui');
    const at = time(root.time, 'time', now);
    if (event === 'integration') {
      const name = optString(root.integrationName, 'integrationName') ?? 'an integration';
      const type = optString(root.eventType, 'eventType') ?? 'an event';
      return { notice: { type: event, devEUI, action: `acknowledged: ${type} of ${name} is not stored` } };
    }
    if (event === 'log') {
      const level = optString(root.level, 'level') ?? 'INFO';
      const code = optString(root.code, 'code') ?? 'UNKNOWN';
      const description = optString(root.description, 'description', 2000) ?? '';
      const message = `ChirpStack ${level} ${code} for ${devEUI ?? 'no device'}: ${description}`;
      return { notice: { type: event, devEUI, action: `logged: ${level} ${code}`, log: { level: LOG_LEVELS[level] ?? 'info', message } } };
    }
    if (devEUI === null) throw new DeliveryError('deviceInfo.devEui', 'deviceInfo.devEui is required');
    if (event === 'join') return { device: { type: event, devEUI, at, kind: 'activity' } };
    if (event === 'status') {
      // Protobuf's defaults are left out: no batteryLevel with neither flag set is a level ChirpStack did not get.
      const unavailable = root.batteryLevelUnavailable === true || root.externalPowerSource === true;
      const battery = unavailable ? null : optNumber(root.batteryLevel, 'batteryLevel', 0, 100);
      const margin = optNumber(root.margin, 'margin', -128, 127) ?? 0;
      return { device: { type: event, devEUI, at, kind: 'status', batteryPercent: battery, marginDb: margin } };
    }
    // location
    if (!isObj(root.location)) return { notice: { type: event, devEUI, action: 'acknowledged: the event carries no location' } };
    const location = root.location;
    const lat = optNumber(location.latitude, 'location.latitude', -90, 90) ?? 0;
    const lon = optNumber(location.longitude, 'location.longitude', -180, 180) ?? 0;
    const alt = optNumber(location.altitude, 'location.altitude', -20_000, 100_000);
    const dedup = optString(root.deduplicationId, 'deduplicationId', 100);
    return { device: { type: event, devEUI, at, kind: 'position', messageId: dedup ? `dedup:${dedup}` : null, position: { lat, lon, alt } } };
  });
}
