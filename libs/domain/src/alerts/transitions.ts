import type { UplinkRecordWire } from '../wire/uplink';
import { RECORD_COLUMN_MEMBERS } from '../wire/uplink-mapping';
import type { FenceTrigger } from './rule';

/**
 * The state a rule keeps per device, and what an observation does to it. Pure: the worker loads
 * the state, applies an uplink (or the clock), and stores what comes out, in one transaction.
 */
export type RuleState = 'inside' | 'outside' | 'normal' | 'alert' | 'online' | 'offline';

export interface Transition {
  state: RuleState;
  /** The rule's condition began: an alert is raised. */
  raise: boolean;
  /** The condition ended: the active alert is cleared. */
  clear: boolean;
}

const transition = (prev: RuleState | null, next: RuleState, alerting: RuleState, first: 'silent' | 'raise'): Transition => {
  if (prev === null) return { state: next, raise: first === 'raise' && next === alerting, clear: false };
  return { state: next, raise: prev !== alerting && next === alerting, clear: prev === alerting && next !== alerting };
};

/**
 * Fences fire on a change only: the first position a rule sees for a device sets its state without
 * an alert (the device did not enter or leave; it was there). A `leave` rule is active while the
 * device is outside, an `enter` rule while it is inside.
 */
export function fenceTransition(prev: RuleState | null, inside: boolean, on: FenceTrigger): Transition {
  return transition(prev, inside ? 'inside' : 'outside', on === 'leave' ? 'outside' : 'inside', 'silent');
}

/**
 * A level with hysteresis: `above` raises when the value goes over the limit and clears only once it
 * is below limit − hysteresis (`below` mirrors it), so a value hovering at the limit raises once.
 * Unlike fences, a first value already past the limit raises: the condition holds.
 */
export function levelTransition(prev: RuleState | null, value: number, limit: { above: number } | { below: number }, hysteresis: number): Transition {
  const wasAlert = prev === 'alert';
  const past = 'above' in limit ? value > limit.above : value < limit.below;
  const backInside = 'above' in limit ? value < limit.above - hysteresis : value > limit.below + hysteresis;
  const next: RuleState = past || (wasAlert && !backInside) ? 'alert' : 'normal';
  return transition(prev, next, 'alert', 'raise');
}

/** The offline rule: raised by the clock, cleared by the next uplink. */
export function offlineTransition(prev: RuleState | null, observation: 'uplink' | 'silent'): Transition {
  return transition(prev ?? 'online', observation === 'uplink' ? 'online' : 'offline', 'offline', 'raise');
}

type DecoderNumber = Extract<(typeof RECORD_COLUMN_MEMBERS)[number], { from: 'decoder'; type: 'number' }>['key'];
/** A decoder's numeric measurements that have a column of their own: a new one is a threshold's member without further ado. */
const MEASUREMENTS: readonly DecoderNumber[] = RECORD_COLUMN_MEMBERS.filter((m) => m.from === 'decoder' && m.type === 'number').map(
  (m) => m.key as DecoderNumber,
);
const RADIO = ['RSSI', 'SNR', 'SF'] as const;

/** A threshold's value in an uplink: a measurement of the row or its radio data, else a number in `payload_decoded`. */
export function memberValue(row: UplinkRecordWire, member: string): number | null {
  let value: unknown = undefined;
  if ((MEASUREMENTS as readonly string[]).includes(member)) value = row[member as DecoderNumber];
  else if ((RADIO as readonly string[]).includes(member)) value = row.uplink[member as (typeof RADIO)[number]];
  if (value === undefined || value === null) value = row.payload_decoded[member];
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

/** Where the uplink says the device is: its decoded position, else the network's; null when neither. */
export function uplinkPosition(row: UplinkRecordWire): { lon: number; lat: number } | null {
  if (typeof row.LAT === 'number' && typeof row.LON === 'number') return { lon: row.LON, lat: row.LAT };
  if (typeof row.geoloc_LAT === 'number' && typeof row.geoloc_LON === 'number') return { lon: row.geoloc_LON, lat: row.geoloc_LAT };
  return null;
}
