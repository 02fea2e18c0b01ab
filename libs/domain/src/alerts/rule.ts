import type { DeviceFilterWire } from '../devices/device-filter';

/**
 * Alert rules (docs/api.md §19). One shape for every kind, the members of other kinds null:
 * - `fence`: a device enters (`on: "enter"`) or leaves (`on: "leave"`) the fence `fence`;
 * - `offline`: no uplink for `minutes`, cleared by the next uplink;
 * - `threshold`: the measurement `member` is above `above` or below `below`, cleared once it is
 *   back by more than `hysteresis`;
 * - `battery`: the battery `measure` (`percent` or `voltage`) is below `below`, with `hysteresis`.
 */
export const RULE_KINDS = ['fence', 'offline', 'threshold', 'battery'] as const;
export type RuleKind = (typeof RULE_KINDS)[number];
export const FENCE_TRIGGERS = ['enter', 'leave'] as const;
export type FenceTrigger = (typeof FENCE_TRIGGERS)[number];
export const BATTERY_MEASURES = ['percent', 'voltage'] as const;
export type BatteryMeasure = (typeof BATTERY_MEASURES)[number];

export const RULE_NAME_MAX_LENGTH = 100;
export const MAX_RULES_PER_ACCOUNT = 2_000;
export const OFFLINE_MINUTES_MAX = 43_200;
export const RULE_MEMBER_PATTERN = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

/** What a rule says, without its identity. */
export interface RuleDefinition {
  name: string;
  kind: RuleKind;
  enabled: boolean;
  devices: DeviceFilterWire | null;
  /** Also send the alert (raised and cleared) by e-mail to the account's address. */
  email: boolean;
  fence: number | null;
  on: FenceTrigger | null;
  minutes: number | null;
  member: string | null;
  above: number | null;
  below: number | null;
  hysteresis: number | null;
  measure: BatteryMeasure | null;
}

export interface RuleWire extends RuleDefinition {
  uid: number;
  created_unix: number;
  updated_unix: number;
}

type KindMember = 'fence' | 'on' | 'minutes' | 'member' | 'above' | 'below' | 'hysteresis' | 'measure';

/** The members each kind takes; the others must be null (or absent). */
const MEMBERS: Record<RuleKind, { required: KindMember[]; optional: KindMember[] }> = {
  fence: { required: ['fence', 'on'], optional: [] },
  offline: { required: ['minutes'], optional: [] },
  threshold: { required: ['member'], optional: ['above', 'below', 'hysteresis'] },
  battery: { required: ['measure', 'below'], optional: ['hysteresis'] },
};
const ALL_MEMBERS: KindMember[] = ['fence', 'on', 'minutes', 'member', 'above', 'below', 'hysteresis', 'measure'];

export interface RuleProblem {
  field: string;
  message: string;
}

/** What is wrong with a definition for its kind (types and ranges are checked before this), one entry per member. */
export function ruleProblems(def: RuleDefinition): RuleProblem[] {
  const problems: RuleProblem[] = [];
  const { required, optional } = MEMBERS[def.kind];
  for (const m of ALL_MEMBERS) {
    const given = def[m] !== null;
    if (required.includes(m) && !given) problems.push({ field: m, message: `${m} is required for a ${def.kind} rule` });
    if (!required.includes(m) && !optional.includes(m) && given) problems.push({ field: m, message: `${m} is not a member of a ${def.kind} rule` });
  }
  if (def.kind === 'threshold' && (def.above === null) === (def.below === null)) {
    problems.push({ field: def.above === null ? 'above' : 'below', message: 'a threshold rule takes exactly one of above and below' });
  }
  if (def.kind === 'battery' && def.measure === 'percent' && def.below !== null && (def.below <= 0 || def.below > 100)) {
    problems.push({ field: 'below', message: 'below must be within 0..100 (exclusive of 0) for a battery percentage' });
  }
  return problems;
}

/** POST /user/rule: `name`, `kind` and the members of that kind; PATCH takes any but `kind`. */
export type CreateRuleRequest = { name: string; kind: RuleKind; devices?: Partial<DeviceFilterWire> | null } & Partial<
  Omit<RuleDefinition, 'name' | 'kind' | 'devices'>
>;
export type UpdateRuleRequest = Partial<Omit<CreateRuleRequest, 'kind'>>;
