import {
  type AlertEventWire,
  alertMessages,
  type CommandEventWire,
  deviceMatches,
  type EventWire,
  eventBody,
  fenceTransition,
  type ImageEventWire,
  type ImageStatus,
  levelTransition,
  memberValue,
  offlineTransition,
  pointInFence,
  type PreparedFence,
  type RuleState,
  toAlertWire,
  toCommandWire,
  toImageListEntryWire,
  toUplinkRecordWire,
  type Transition,
  type UplinkEventWire,
  type UplinkRecordWire,
  uplinkPosition,
  type CommandStatus,
} from '@dts/domain';
import { type RoutingBatch, type RoutingDevice, type RoutingEvent, type RoutingOutcome, type RoutingRule, type RuleStep, stateKey } from '@dts/persistence';

/**
 * What one batch of events means: each event's body (built once, whatever the number of
 * integrations), a delivery per integration that wants it, and what each alert rule makes of each
 * uplink. Events are taken in id order, so a device's uplinks are judged in the order they
 * committed; an uplink older than the last one a rule judged for that device (a network's late
 * replay) is not judged again, so states never move backwards.
 */
export function decideRouting(batch: RoutingBatch, fences: ReadonlyMap<number, PreparedFence>): RoutingOutcome {
  const outcome: RoutingOutcome = { bodies: new Map(), deliveries: [], steps: [] };
  const states = new Map<string, { state: RuleState; observed_at: Date }>([...batch.states].map(([k, s]) => [k, s]));
  const last = new Map<string, RuleStep>();
  for (const event of batch.events) {
    const device = batch.devices.get(event.device_id);
    const body = device && !device.deleted ? buildBody(batch, event, device) : null;
    if (!device || !body) {
      outcome.bodies.set(event.id, null);
      continue;
    }
    if (body.type === 'uplink') judgeUplink(batch, fences, device, body.data, states, outcome.steps, last);
    // An alert goes to its own account's integrations only; the rest to every account that sees the device.
    const alertAccount = body.type === 'alert' ? batch.alerts.get(event.ref)?.account_id : undefined;
    const wanting = batch.integrations.filter(
      (i) =>
        i.events.includes(event.kind) &&
        (alertAccount === undefined ? device.accounts.includes(i.account_id) : i.account_id === alertAccount) &&
        deviceMatches(i.devices, device),
    );
    outcome.bodies.set(event.id, wanting.length > 0 ? JSON.stringify(body) : null);
    for (const i of wanting) outcome.deliveries.push({ integration_id: i.uid, event_id: event.id, device_id: device.uid });
  }
  for (const step of last.values()) outcome.steps.push(step);
  return outcome;
}

function buildBody(batch: RoutingBatch, event: RoutingEvent, device: RoutingDevice): EventWire | null {
  switch (event.kind) {
    case 'uplink': {
      const row = batch.uplinks.get(event.ref);
      if (!row) return null;
      const data = toUplinkRecordWire(row, { uid: device.uid, eui: device.eui, ownerId: device.owner_id });
      return eventBody<UplinkEventWire>('uplink', event.id, event.created_at, device.eui, data);
    }
    case 'command': {
      const row = batch.commands.get(event.ref);
      if (!row) return null;
      // The command as it was at this change: its status then, and a reason only once it failed.
      const status = (event.status ?? row.status) as CommandStatus;
      const data = { ...toCommandWire(row), status, reason: status === 'Failed' ? row.reason : null };
      return eventBody<CommandEventWire>('command', event.id, event.created_at, device.eui, data);
    }
    case 'image': {
      const row = batch.images.get(event.ref);
      if (!row || row.deleted === 1) return null;
      const data = { ...toImageListEntryWire(row), status: Number(event.status ?? row.status) as ImageStatus };
      return eventBody<ImageEventWire>('image', event.id, event.created_at, device.eui, data);
    }
    case 'alert': {
      const row = batch.alerts.get(event.ref);
      if (!row) return null;
      const wire = toAlertWire(row);
      const data =
        event.status === 'active' ? { ...wire, state: 'active' as const, cleared_unix: null, mail: wire.mail && { ...wire.mail, cleared: null } } : wire;
      return eventBody<AlertEventWire>('alert', event.id, event.created_at, device.eui, data);
    }
  }
}

const label = (device: RoutingDevice) => device.label || device.eui;

/** Every enabled rule of an account that sees the device, whose devices include it, applied to one uplink. */
function judgeUplink(
  batch: RoutingBatch,
  fences: ReadonlyMap<number, PreparedFence>,
  device: RoutingDevice,
  row: UplinkRecordWire,
  states: Map<string, { state: RuleState; observed_at: Date }>,
  steps: RuleStep[],
  last: Map<string, RuleStep>,
): void {
  const at = new Date(row.uplink.time_stamp_unix * 1000);
  for (const rule of batch.rules) {
    if (!device.accounts.includes(rule.account_id) || !deviceMatches(rule.devices, device)) continue;
    const key = stateKey(rule.uid, device.uid);
    const held = states.get(key);
    if (held && held.observed_at > at) continue;
    const judged = judge(rule, row, fences, held?.state ?? null);
    if (!judged) continue;
    const { transition, observed } = judged;
    const step: RuleStep = {
      rule_id: rule.uid,
      device_id: device.uid,
      state: transition.state,
      observed_at: at,
      due_at: rule.kind === 'offline' ? new Date(at.getTime() + rule.minutes! * 60_000) : null,
    };
    states.set(key, { state: transition.state, observed_at: at });
    // Most observations change nothing: only the last state of each key is written, and only a
    // raise or a clear builds its message and details.
    if (transition.raise || transition.clear) {
      const details = { ...observed, uplink: row.uplink.uid };
      if (transition.clear) step.clear = { at, by: details };
      if (transition.raise) step.raise = { rule, device_id: device.uid, message: message(rule, device, observed), details, at };
      steps.push(step);
    }
    last.set(key, { rule_id: step.rule_id, device_id: step.device_id, state: step.state, observed_at: step.observed_at, due_at: step.due_at });
  }
}

/** What a rule saw in an uplink, as an alert's details show it. */
type Observed = Record<string, unknown>;

function judge(
  rule: RoutingRule,
  row: UplinkRecordWire,
  fences: ReadonlyMap<number, PreparedFence>,
  prev: RuleState | null,
): { transition: Transition; observed: Observed } | null {
  switch (rule.kind) {
    case 'fence': {
      const position = uplinkPosition(row);
      const fence = rule.fence_id === null ? undefined : fences.get(rule.fence_id);
      if (!position || !fence) return null;
      const inside = pointInFence(fence, position.lon, position.lat);
      return {
        transition: fenceTransition(prev, inside, rule.on_event!),
        observed: { fence: rule.fence_id, on: rule.on_event, inside, lat: position.lat, lon: position.lon },
      };
    }
    case 'threshold':
    case 'battery': {
      const member = rule.kind === 'threshold' ? rule.member! : rule.measure === 'percent' ? 'battery_percent' : 'battery_voltage';
      const value = memberValue(row, member);
      if (value === null) return null;
      const limit = rule.above !== null ? { above: rule.above } : { below: rule.below! };
      const hysteresis = rule.hysteresis ?? 0;
      return { transition: levelTransition(prev, value, limit, hysteresis), observed: { member, value, ...limit, hysteresis } };
    }
    case 'offline':
      return { transition: offlineTransition(prev, 'uplink'), observed: { minutes: rule.minutes, last_uplink_unix: row.uplink.time_stamp_unix } };
  }
}

function message(rule: RoutingRule, device: RoutingDevice, observed: Observed): string {
  const name = label(device);
  switch (rule.kind) {
    case 'fence':
      return alertMessages.fence(name, rule.fence_name ?? String(rule.fence_id), rule.on_event!);
    case 'threshold':
      return alertMessages.threshold(name, rule.member!, observed.value as number, rule.above !== null ? { above: rule.above } : { below: rule.below! });
    case 'battery':
      return alertMessages.battery(name, rule.measure!, observed.value as number, rule.below!);
    case 'offline':
      return alertMessages.offline(name, rule.minutes!);
  }
}
