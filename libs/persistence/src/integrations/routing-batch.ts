import type { DeviceFilterWire, EventType, FenceTrigger, GeoJsonPolygon, RuleKind, RuleState, BatteryMeasure } from '@dts/domain';
import type { AlertRow } from '../alerts/alerts.repository';
import type { AlertToRaise } from '../alerts/alert-writes';
import type { ImageRow } from '../images/images.repository';
import type { CommandRow } from '../commands/commands.repository';
import type { UplinkRow } from '../uplinks/uplink-reads.repository';

/*
 * What the event router (the worker's integrations and alerts) and its repository exchange: a batch
 * of events with everything needed to judge them, read in one transaction, and what was decided,
 * written in the same one.
 */

export interface RoutingEvent {
  id: string;
  kind: EventType;
  device_id: number;
  ref: string;
  status: string | null;
  created_at: Date;
}

export interface RoutingDevice {
  uid: number;
  eui: string;
  owner_id: number;
  label: string;
  folder: string | null;
  tags: unknown;
  deleted: boolean;
  /** The owner and every account the device is shared with. */
  accounts: number[];
}

export interface RoutingIntegration {
  uid: number;
  account_id: number;
  events: EventType[];
  devices: DeviceFilterWire | null;
}

export interface RoutingRule {
  uid: number;
  account_id: number;
  name: string;
  kind: RuleKind;
  devices: DeviceFilterWire | null;
  email: boolean;
  fence_id: number | null;
  fence_name: string | null;
  /** The fence's revision (moved on by every edit): a prepared fence of another revision is read again. */
  fence_revision: number | null;
  on_event: FenceTrigger | null;
  minutes: number | null;
  member: string | null;
  above: number | null;
  below: number | null;
  hysteresis: number | null;
  measure: BatteryMeasure | null;
}

export interface RuleStateRow {
  rule_id: number;
  device_id: number;
  state: RuleState;
  observed_at: Date;
  alert_id: string | null;
  due_at: Date | null;
}

/** Everything the router needs to route one batch of events, read in its transaction. */
export interface RoutingBatch {
  events: RoutingEvent[];
  devices: Map<number, RoutingDevice>;
  uplinks: Map<string, UplinkRow & { device_id: number }>;
  commands: Map<string, CommandRow>;
  images: Map<string, ImageRow>;
  alerts: Map<string, AlertRow>;
  integrations: RoutingIntegration[];
  rules: RoutingRule[];
  /** By `${rule}:${device}`, locked until the batch commits. */
  states: Map<string, RuleStateRow>;
  /** Fence geometries the caller does not hold yet, or holds in an older revision (it names the ones it has). */
  fences: Map<number, { revision: number; geometry: GeoJsonPolygon }>;
}

/** One rule observing one device: its new state, and the alert it raises or clears. In event order. */
export interface RuleStep {
  rule_id: number;
  device_id: number;
  state: RuleState;
  observed_at: Date;
  due_at: Date | null;
  raise?: AlertToRaise;
  clear?: { at: Date; by: Record<string, unknown> };
}

/** What routing a batch decided, written in the same transaction. */
export interface RoutingOutcome {
  /** Per event id: its serialised body, or null when nothing wants it. */
  bodies: Map<string, string | null>;
  deliveries: { integration_id: number; event_id: string; device_id: number }[];
  /** The steps that raise or clear, in event order, then (without either) each rule and device's last state. */
  steps: RuleStep[];
}

/** An alert raised or cleared: its device's live feeds hear of it once committed. */
export interface AlertChange {
  device_id: number;
  alert_id: string;
  action: 'raised' | 'cleared';
  /**
   * Its rule wants it mailed; once its transaction decided the mail (decideMails), that a job is
   * to send it (held and skipped mails are recorded, nothing more to do).
   */
  mail: boolean;
}

export const stateKey = (rule: number, device: number) => `${rule}:${device}`;
