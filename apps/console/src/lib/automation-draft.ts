import {
  type BatteryMeasure,
  type CreateIntegrationRequest,
  type CreateRuleRequest,
  type DeviceFilterWire,
  type EventType,
  type FenceTrigger,
  type IntegrationKind,
  type IntegrationWire,
  type RuleKind,
  type RuleWire,
} from '@dts/domain';
import { i18n } from '../i18n';
import { parseTags } from './format';

/** Which devices a rule or an integration covers, as typed: EUIs and tags as comma-separated text. */
export interface ScopeDraft {
  euis: string;
  folder: string;
  tags: string;
}

export const scopeDraft = (devices: DeviceFilterWire | null): ScopeDraft => ({
  euis: devices?.euis?.join(', ') ?? '',
  folder: devices?.folder ?? '',
  tags: devices?.tags?.join(', ') ?? '',
});

/** The `devices` member: null when nothing narrows it (every device). EUIs are split on commas and spaces. */
export function scopeBody(scope: ScopeDraft): Partial<DeviceFilterWire> | null {
  const euis = [
    ...new Set(
      scope.euis
        .split(/[\s,;]+/)
        .map((e) => e.trim().toUpperCase())
        .filter(Boolean),
    ),
  ];
  const tags = parseTags(scope.tags);
  const folder = scope.folder.trim();
  if (euis.length === 0 && !tags && !folder) return null;
  return { euis: euis.length ? euis : null, folder: folder || null, tags };
}

/** A rule as its form holds it: every kind's members as typed, so switching kind loses nothing. */
export interface RuleDraft {
  name: string;
  kind: RuleKind;
  enabled: boolean;
  email: boolean;
  scope: ScopeDraft;
  fence: string;
  on: FenceTrigger;
  minutes: string;
  member: string;
  direction: 'above' | 'below';
  limit: string;
  hysteresis: string;
  measure: BatteryMeasure;
  below: string;
}

export function ruleDraft(rule?: RuleWire): RuleDraft {
  return {
    name: rule?.name ?? '',
    kind: rule?.kind ?? 'threshold',
    enabled: rule?.enabled ?? true,
    email: rule?.email ?? false,
    scope: scopeDraft(rule?.devices ?? null),
    fence: rule?.fence === null || rule?.fence === undefined ? '' : String(rule.fence),
    on: rule?.on ?? 'leave',
    minutes: rule?.minutes === null || rule?.minutes === undefined ? '60' : String(rule.minutes),
    member: rule?.kind === 'threshold' ? (rule.member ?? '') : 'temperature',
    direction: rule?.kind === 'threshold' && rule.below !== null ? 'below' : 'above',
    limit: rule?.kind === 'threshold' ? String(rule.above ?? rule.below ?? '') : '',
    hysteresis: rule?.hysteresis === null || rule?.hysteresis === undefined ? '' : String(rule.hysteresis),
    measure: rule?.measure ?? 'percent',
    below: rule?.kind === 'battery' && rule.below !== null ? String(rule.below) : '',
  };
}

/** A number as typed: null when empty, NaN when not a number (the form says so at the field). */
function numberOf(text: string): number | null {
  const t = text.trim().replace(',', '.');
  return t === '' ? null : Number(t);
}

export type RuleFieldProblems = Partial<Record<'fence' | 'minutes' | 'member' | 'above' | 'below' | 'hysteresis' | 'name', string>>;

/**
 * The request for the draft: the members of its kind (null where left empty, so a PATCH clears what
 * the person emptied, and a threshold turned from above to below drops the other), or what must be
 * fixed first (in the console's language). Ranges are the service's to judge: its errors come back naming the field.
 */
export function ruleBody(d: RuleDraft): { body: CreateRuleRequest } | { problems: RuleFieldProblems } {
  const problems: RuleFieldProblems = {};
  const num = (text: string, field: keyof RuleFieldProblems, required: boolean) => {
    const n = numberOf(text);
    if (n === null && required) problems[field] = i18n.t('rules.problems.number');
    else if (n !== null && !Number.isFinite(n)) problems[field] = i18n.t('rules.problems.numberLike');
    return n !== null && Number.isFinite(n) ? n : null;
  };
  if (!d.name.trim()) problems.name = i18n.t('rules.problems.name');
  const common = { name: d.name.trim(), kind: d.kind, enabled: d.enabled, email: d.email, devices: scopeBody(d.scope) };
  let body: CreateRuleRequest;
  switch (d.kind) {
    case 'fence':
      if (!d.fence) problems.fence = i18n.t('rules.problems.fence');
      body = { ...common, fence: Number(d.fence), on: d.on };
      break;
    case 'offline': {
      const minutes = num(d.minutes, 'minutes', true);
      if (minutes !== null && !Number.isInteger(minutes)) problems.minutes = i18n.t('rules.problems.wholeMinutes');
      body = { ...common, minutes };
      break;
    }
    case 'threshold': {
      if (!d.member.trim()) problems.member = i18n.t('rules.problems.member');
      const limit = num(d.limit, d.direction, true);
      body = {
        ...common,
        member: d.member.trim(),
        above: d.direction === 'above' ? limit : null,
        below: d.direction === 'below' ? limit : null,
        hysteresis: num(d.hysteresis, 'hysteresis', false),
      };
      break;
    }
    case 'battery':
      body = { ...common, measure: d.measure, below: num(d.below, 'below', true), hysteresis: num(d.hysteresis, 'hysteresis', false) };
      break;
  }
  return Object.keys(problems).length ? { problems } : { body };
}

/** An integration as its form holds it. */
export interface IntegrationDraft {
  name: string;
  kind: IntegrationKind;
  url: string;
  events: EventType[];
  enabled: boolean;
  scope: ScopeDraft;
  topic: string;
  qos: 0 | 1;
  username: string;
  /** Empty: keep the stored password (editing) or none (creating). */
  password: string;
  clearPassword: boolean;
}

export function integrationDraft(i?: IntegrationWire): IntegrationDraft {
  return {
    name: i?.name ?? '',
    kind: i?.kind ?? 'webhook',
    url: i?.url ?? '',
    events: i?.events ?? ['uplink'],
    enabled: i?.enabled ?? true,
    scope: scopeDraft(i?.devices ?? null),
    topic: i?.topic ?? '',
    qos: i?.qos ?? 1,
    username: i?.username ?? '',
    password: '',
    clearPassword: false,
  };
}

/**
 * The request for the draft: MQTT members only for MQTT (a webhook refuses them), the topic left
 * out when empty (the service's default), the password sent only when typed or cleared.
 */
export function integrationBody(d: IntegrationDraft, editing: boolean): CreateIntegrationRequest {
  const body: CreateIntegrationRequest = {
    name: d.name.trim(),
    kind: d.kind,
    url: d.url.trim(),
    events: d.events,
    enabled: d.enabled,
    devices: scopeBody(d.scope),
  };
  if (d.kind === 'mqtt') {
    if (d.topic.trim()) body.topic = d.topic.trim();
    else if (editing) body.topic = null;
    body.qos = d.qos;
    body.username = d.username.trim() || null;
    if (d.password) body.password = d.password;
    else if (d.clearPassword) body.password = null;
  }
  return body;
}
