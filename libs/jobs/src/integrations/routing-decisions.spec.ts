import { prepareFence } from '@dts/domain';
import type { RoutingBatch, RoutingRule, UplinkRow } from '@dts/persistence';
import { decideRouting } from './routing-decisions';

const square = {
  type: 'Polygon' as const,
  coordinates: [
    [
      [0, 0],
      [1, 0],
      [1, 1],
      [0, 1],
      [0, 0],
    ],
  ] as [number, number][][],
};
const fences = new Map([[7, prepareFence(square)]]);
const at = (s: number) => new Date(Date.UTC(2026, 4, 1, 12, 0, s));

function uplink(uid: number, lat: number | null, lon: number | null, second: number, temperature: number | null = null): UplinkRow & { device_id: number } {
  return {
    uid: String(uid),
    device_id: 1,
    received_at: at(second),
    port: 1,
    payload: Buffer.from([1]),
    sf: null,
    rssi: null,
    snr: null,
    geoloc_lat: null,
    geoloc_lon: null,
    geoloc_alt: null,
    decoded: {},
    valid: true,
    payload_errors: null,
    payload_warnings: null,
    temperature,
    humidity: null,
    battery_voltage: null,
    battery_percent: null,
    lat,
    lon,
    alt: null,
    firmware_version: null,
    ts_device: null,
    ts_gps: null,
    api_ref: null,
    network: 'rest',
  };
}

const rule = (extra: Partial<RoutingRule>): RoutingRule => ({
  uid: 1,
  account_id: 10,
  name: 'r',
  kind: 'fence',
  devices: null,
  email: false,
  fence_id: 7,
  fence_name: 'Square',
  fence_revision: 1,
  on_event: 'leave',
  minutes: null,
  member: null,
  above: null,
  below: null,
  hysteresis: null,
  measure: null,
  ...extra,
});

function batch(uplinks: ReturnType<typeof uplink>[], extra: Partial<RoutingBatch> = {}): RoutingBatch {
  return {
    events: uplinks.map((u, i) => ({ id: String(100 + i), kind: 'uplink', device_id: 1, ref: u.uid, status: null, created_at: u.received_at })),
    devices: new Map([[1, { uid: 1, eui: '70B3D57ED0000A01', owner_id: 10, label: 'Bike', folder: 'park', tags: ['x'], deleted: false, accounts: [10, 20] }]]),
    uplinks: new Map(uplinks.map((u) => [u.uid, u])),
    commands: new Map(),
    images: new Map(),
    alerts: new Map(),
    integrations: [],
    rules: [],
    states: new Map(),
    fences: new Map(),
    ...extra,
  };
}

describe('decideRouting', () => {
  it('builds each body once, and a delivery per integration of every account that sees the device and wants the type', () => {
    const out = decideRouting(
      batch([uplink(1, 0.5, 0.5, 1), uplink(2, 0.5, 0.5, 2)], {
        integrations: [
          { uid: 1, account_id: 10, events: ['uplink'], devices: null },
          { uid: 2, account_id: 20, events: ['uplink', 'alert'], devices: { euis: null, folder: 'park', tags: null } },
          { uid: 3, account_id: 10, events: ['command'], devices: null },
          { uid: 4, account_id: 30, events: ['uplink'], devices: null },
          { uid: 5, account_id: 10, events: ['uplink'], devices: { euis: null, folder: 'barn', tags: null } },
        ],
      }),
      fences,
    );
    expect(out.deliveries).toEqual([
      { integration_id: 1, event_id: '100', device_id: 1 },
      { integration_id: 2, event_id: '100', device_id: 1 },
      { integration_id: 1, event_id: '101', device_id: 1 },
      { integration_id: 2, event_id: '101', device_id: 1 },
    ]);
    const body = JSON.parse(out.bodies.get('100')!);
    expect(body).toMatchObject({ type: 'uplink', version: 1, id: 'evt_100', devEUI: '70B3D57ED0000A01', data: { uplink: { uid: 1 }, LAT: 0.5 } });
  });

  it('leaves the body out when nothing wants the event', () => {
    expect(decideRouting(batch([uplink(1, 0.5, 0.5, 1)]), fences).bodies.get('100')).toBeNull();
  });

  it('judges a device’s uplinks in order: a leave and a return in one batch raise and clear, and only the last state is kept', () => {
    const out = decideRouting(
      batch([uplink(1, 0.5, 0.5, 1), uplink(2, 0.5, 0.6, 2), uplink(3, 5, 5, 3), uplink(4, 5, 6, 4), uplink(5, 0.2, 0.2, 5)], { rules: [rule({})] }),
      fences,
    );
    const alertSteps = out.steps.filter((s) => s.raise || s.clear);
    expect(alertSteps.map((s) => [s.raise ? 'raise' : 'clear', s.observed_at])).toEqual([
      ['raise', at(3)],
      ['clear', at(5)],
    ]);
    expect(alertSteps[0]!.raise).toMatchObject({ message: 'Bike left fence Square', details: { inside: false, lat: 5, lon: 5, uplink: 3 } });
    const finals = out.steps.filter((s) => !s.raise && !s.clear);
    expect(finals).toEqual([{ rule_id: 1, device_id: 1, state: 'inside', observed_at: at(5), due_at: null }]);
  });

  it('does not move a state back for an uplink older than the last one judged', () => {
    const states = new Map([['1:1', { rule_id: 1, device_id: 1, state: 'inside' as const, observed_at: at(10), alert_id: null, due_at: null }]]);
    const out = decideRouting(batch([uplink(1, 5, 5, 3)], { rules: [rule({})], states }), fences);
    expect(out.steps).toEqual([]);
  });

  it('ignores rules of accounts that do not see the device, and uplinks without what a rule reads', () => {
    const out = decideRouting(
      batch([uplink(1, null, null, 1, 35)], {
        rules: [
          rule({ account_id: 30 }),
          rule({ uid: 2 }),
          rule({ uid: 3, kind: 'threshold', fence_id: null, on_event: null, member: 'temperature', above: 30 }),
        ],
      }),
      fences,
    );
    expect(out.steps.map((s) => [s.rule_id, s.raise ? 'raise' : 'state'])).toEqual([
      [3, 'raise'],
      [3, 'state'],
    ]);
  });
});
