import type { AlertWire } from '../alerts/alert';
import type { CommandWire } from '../wire/command';
import type { ImageListEntryWire } from '../wire/image';
import type { UplinkRecordWire } from '../wire/uplink';
import type { EventType } from './integration';

/**
 * The body of every outbound event (webhook request body, MQTT message, docs/api.md §18). `version`
 * moves only when a member changes meaning or goes; members may be added within a version.
 */
export const EVENT_VERSION = 1;

interface EventBody<T extends EventType, D> {
  type: T;
  version: typeof EVENT_VERSION;
  /** `evt_<n>`: the same for every delivery and retry of the event (also the `webhook-id`). */
  id: string;
  /** When the event happened (stored), ISO 8601 UTC. */
  timestamp: string;
  devEUI: string;
  data: D;
}

/** A new uplink: `data` is the row of GET /user/device/table/{eui}. */
export type UplinkEventWire = EventBody<'uplink', UplinkRecordWire>;
/** A command created or moved to another status: `data` is the command as GET …/command/{eui} lists it, at that status. */
export type CommandEventWire = EventBody<'command', CommandWire>;
/** An alert raised or cleared: `data` is the alert as GET /user/alert lists it, at that moment. */
export type AlertEventWire = EventBody<'alert', AlertWire>;
/** A camera-trap image processed (ready, annotated or failed): `data` is the image as its list shows it. */
export type ImageEventWire = EventBody<'image', ImageListEntryWire>;

export type EventWire = UplinkEventWire | CommandEventWire | AlertEventWire | ImageEventWire;

export const eventId = (n: number | string) => `evt_${n}`;

export function eventBody<E extends EventWire>(type: E['type'], n: number | string, at: Date, devEUI: string, data: E['data']): E {
  return { type, version: EVENT_VERSION, id: eventId(n), timestamp: at.toISOString(), devEUI, data } as E;
}
