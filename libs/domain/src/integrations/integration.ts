import type { DeviceFilterWire } from '../devices/device-filter';

/**
 * Outbound integrations (docs/api.md §18): an account's own HTTP endpoint (Standard Webhooks) or
 * MQTT broker, the event types it wants, and which devices.
 */
export const INTEGRATION_KINDS = ['webhook', 'mqtt'] as const;
export type IntegrationKind = (typeof INTEGRATION_KINDS)[number];

/** Never rename one: integrations store them, and receivers switch on them. */
export const EVENT_TYPES = ['uplink', 'command', 'alert', 'image'] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export const INTEGRATION_NAME_MAX_LENGTH = 100;
export const INTEGRATION_URL_MAX_LENGTH = 500;
export const MAX_INTEGRATIONS_PER_ACCOUNT = 50;

export interface IntegrationWire {
  uid: number;
  name: string;
  kind: IntegrationKind;
  /** Webhook: the http(s) URL posted to. MQTT: the broker, `mqtt://host[:1883]` or `mqtts://host[:8883]`. */
  url: string;
  events: EventType[];
  /** null: every device of the account (owned or shared with it). */
  devices: DeviceFilterWire | null;
  enabled: boolean;
  /** Why the service disabled it (continuous failures, the receiver answered 410 Gone); null when enabled or disabled by the account. */
  disabled_reason: string | null;
  disabled_unix: number | null;
  /** Since when every attempt has failed; null while deliveries succeed. */
  failing_since_unix: number | null;
  last_error: string | null;
  last_success_unix: number | null;
  /** Deliveries waiting (or retrying) now. */
  pending: number;
  /** MQTT only (null for webhooks). */
  topic: string | null;
  qos: 0 | 1 | null;
  username: string | null;
  /** Whether an MQTT password is stored (it is never shown). */
  has_password: boolean;
  created_unix: number;
  updated_unix: number;
}

/** POST /user/integration answers with the webhook secret, once: it is never shown again. */
export interface CreatedIntegrationWire extends IntegrationWire {
  secret: string | null;
}

export const DELIVERY_STATES = ['pending', 'delivered', 'failed'] as const;
export type DeliveryState = (typeof DELIVERY_STATES)[number];

/** One event for one integration, and how its delivery went (GET /user/integration/{uid}/deliveries). */
export interface DeliveryWire {
  id: number;
  event_id: string;
  event_type: EventType;
  devEUI: string;
  state: DeliveryState;
  attempts: number;
  created_unix: number;
  last_attempt_unix: number | null;
  /** When the next attempt is due (pending only); null when it is not scheduled yet. */
  next_attempt_unix: number | null;
  delivered_unix: number | null;
  /** HTTP status of the last attempt (webhooks); null for MQTT or when no answer came. */
  response_status: number | null;
  /** Milliseconds the last attempt took, to the answer (webhook) or the broker's acknowledgement (MQTT). */
  latency_ms: number | null;
  error: string | null;
}

/** POST /user/integration; PATCH takes the same members but `kind`, each optional. */
export interface CreateIntegrationRequest {
  name: string;
  kind: IntegrationKind;
  url: string;
  events: EventType[];
  devices?: Partial<DeviceFilterWire> | null;
  enabled?: boolean;
  /** mqtt only. */
  topic?: string | null;
  qos?: 0 | 1 | null;
  username?: string | null;
  password?: string | null;
}
export type UpdateIntegrationRequest = Partial<Omit<CreateIntegrationRequest, 'kind'>>;

export interface DeliveriesQuery {
  state?: DeliveryState;
  limit?: number;
  /** Deliveries older than this id. */
  before?: number | string;
}
