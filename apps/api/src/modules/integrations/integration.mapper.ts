import { type DeliveryWire, type IntegrationWire, toUnix } from '@dts/domain';
import type { DeliveryRow, IntegrationRow } from '@dts/persistence';

const unix = (d: Date | null) => (d === null ? null : toUnix(d));

export function toIntegrationWire(row: IntegrationRow): IntegrationWire {
  const mqtt = row.kind === 'mqtt';
  return {
    uid: row.uid,
    name: row.name,
    kind: row.kind,
    url: row.url,
    events: row.events,
    devices: row.devices,
    enabled: row.enabled,
    disabled_reason: row.disabled_reason,
    disabled_unix: unix(row.disabled_at),
    failing_since_unix: unix(row.failing_since),
    last_error: row.last_error,
    last_success_unix: unix(row.last_success_at),
    pending: row.pending,
    topic: mqtt ? row.topic : null,
    qos: mqtt ? row.qos : null,
    username: mqtt ? row.username : null,
    has_password: row.has_password,
    created_unix: toUnix(row.created_at),
    updated_unix: toUnix(row.updated_at),
  };
}

export function toDeliveryWire(row: DeliveryRow): DeliveryWire {
  return {
    id: Number(row.id),
    event_id: `evt_${row.event_id}`,
    event_type: row.kind,
    devEUI: row.eui,
    state: row.state,
    attempts: row.attempts,
    created_unix: toUnix(row.created_at),
    last_attempt_unix: unix(row.last_attempt_at),
    next_attempt_unix: row.state === 'pending' ? unix(row.next_attempt_at) : null,
    delivered_unix: unix(row.delivered_at),
    response_status: row.response_status,
    latency_ms: row.latency_ms,
    error: row.error,
  };
}
