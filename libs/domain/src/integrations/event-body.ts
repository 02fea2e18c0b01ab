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

/**
 * A test event (POST /user/integration/{uid}/test): the envelope of every event, signed and sent as
 * they are, so a receiver can check its signature and its parsing before real events come. It
 * concerns no device (`devEUI` null; an MQTT topic's `{devEUI}` is `test`); its id,
 * `evt_test_<random>`, is never an id of a real event. It is sent once and stored nowhere.
 */
export interface TestEventWire {
  type: 'test';
  version: typeof EVENT_VERSION;
  id: string;
  timestamp: string;
  devEUI: null;
  data: { integration: number; name: string; message: string };
}

/** What `{devEUI}` of an MQTT topic template is in a test event's topic. */
export const TEST_EVENT_TOPIC_DEVICE = 'test';

export function testEventBody(id: string, at: Date, integration: { uid: number; name: string }): TestEventWire {
  return {
    type: 'test',
    version: EVENT_VERSION,
    id,
    timestamp: at.toISOString(),
    devEUI: null,
    data: { integration: integration.uid, name: integration.name, message: 'A test event from the Device Telemetry Service.' },
  };
}

/** The answer of a test send: how the one attempt went, as a delivery's last attempt is told. */
export interface TestSendWire {
  delivered: boolean;
  /** The receiver's HTTP status (webhooks); null for MQTT or when no answer came. */
  response_status: number | null;
  latency_ms: number;
  error: string | null;
}
