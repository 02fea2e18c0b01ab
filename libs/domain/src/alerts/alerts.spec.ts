import type { GeoJsonPolygon } from '../wire/fence';
import type { UplinkRecordWire } from '../wire/uplink';
import { pointInFence, pointInPolygon, prepareFence } from './point-in-polygon';
import { type RuleDefinition, ruleProblems } from './rule';
import { fenceTransition, levelTransition, memberValue, offlineTransition, uplinkPosition } from './transitions';

const square = (x0: number, y0: number, x1: number, y1: number) => [
  [x0, y0],
  [x1, y0],
  [x1, y1],
  [x0, y1],
  [x0, y0],
];
const poly = (...rings: number[][][]): GeoJsonPolygon => ({ type: 'Polygon', coordinates: rings as [number, number][][] });

describe('point in polygon', () => {
  const withHole = poly(square(0, 0, 10, 10), square(4, 4, 6, 6));

  it.each([
    [5, 1, true],
    [5, 5, false], // in the hole
    [4, 5, true], // on the hole's edge: inside
    [0, 0, true], // a vertex
    [10, 5, true], // on an edge
    [10.000001, 5, false],
    [-1, 5, false],
    [5, 11, false],
  ])('(%d, %d) inside the square with a hole: %s', (lon, lat, inside) => {
    expect(pointInPolygon(withHole, lon, lat)).toBe(inside);
  });

  it('handles concave rings and any winding', () => {
    // A "U": the notch between the arms is outside.
    const u = poly([
      [0, 0],
      [3, 0],
      [3, 3],
      [2, 3],
      [2, 1],
      [1, 1],
      [1, 3],
      [0, 3],
      [0, 0],
    ]);
    expect(pointInPolygon(u, 1.5, 2)).toBe(false);
    expect(pointInPolygon(u, 0.5, 2)).toBe(true);
    expect(pointInPolygon(u, 2.5, 2.9)).toBe(true);
    const clockwise = poly([...square(0, 0, 1, 1)].reverse());
    expect(pointInPolygon(clockwise, 0.5, 0.5)).toBe(true);
  });

  it('works at real coordinates (the Vondelpark) and agrees with a brute-force grid', () => {
    const park = prepareFence(poly(square(4.86, 52.354, 4.882, 52.362)));
    expect(pointInFence(park, 4.87, 52.358)).toBe(true);
    expect(pointInFence(park, 4.89, 52.358)).toBe(false);
    const triangle = prepareFence(
      poly([
        [0, 0],
        [4, 0],
        [0, 4],
        [0, 0],
      ]),
    );
    for (let x = -0.5; x <= 4.5; x += 0.25) {
      for (let y = -0.5; y <= 4.5; y += 0.25) expect(pointInFence(triangle, x, y)).toBe(x >= 0 && y >= 0 && x + y <= 4);
    }
  });
});

describe('rule transitions', () => {
  it('fences fire on a change only, never on the first position', () => {
    expect(fenceTransition(null, false, 'leave')).toEqual({ state: 'outside', raise: false, clear: false });
    expect(fenceTransition('inside', true, 'leave')).toEqual({ state: 'inside', raise: false, clear: false });
    expect(fenceTransition('inside', false, 'leave')).toEqual({ state: 'outside', raise: true, clear: false });
    expect(fenceTransition('outside', false, 'leave')).toEqual({ state: 'outside', raise: false, clear: false });
    expect(fenceTransition('outside', true, 'leave')).toEqual({ state: 'inside', raise: false, clear: true });
    expect(fenceTransition('outside', true, 'enter')).toEqual({ state: 'inside', raise: true, clear: false });
    expect(fenceTransition('inside', false, 'enter')).toEqual({ state: 'outside', raise: false, clear: true });
  });

  it('levels raise once while a value hovers at the limit (hysteresis), and clear past it', () => {
    const above = { above: 30 };
    const seq = [29, 31, 29.8, 30.4, 29.6, 29.4, 31];
    let state: ReturnType<typeof levelTransition>['state'] | null = null;
    const events: string[] = [];
    for (const v of seq) {
      const t = levelTransition(state, v, above, 0.5);
      state = t.state;
      events.push(t.raise ? 'raise' : t.clear ? 'clear' : '-');
    }
    expect(events).toEqual(['-', 'raise', '-', '-', '-', 'clear', 'raise']);
    expect(levelTransition(null, 31, above, 0)).toMatchObject({ raise: true });
    expect(levelTransition(null, 5, { below: 10 }, 2)).toMatchObject({ state: 'alert', raise: true });
    expect(levelTransition('alert', 11, { below: 10 }, 2)).toMatchObject({ state: 'alert', clear: false });
    expect(levelTransition('alert', 12.5, { below: 10 }, 2)).toMatchObject({ state: 'normal', clear: true });
  });

  it('offline raises on silence and clears on the next uplink', () => {
    expect(offlineTransition(null, 'silent')).toEqual({ state: 'offline', raise: true, clear: false });
    expect(offlineTransition('offline', 'silent')).toEqual({ state: 'offline', raise: false, clear: false });
    expect(offlineTransition('offline', 'uplink')).toEqual({ state: 'online', raise: false, clear: true });
    expect(offlineTransition('online', 'uplink')).toEqual({ state: 'online', raise: false, clear: false });
  });

  it('reads values and positions from the table row', () => {
    const row = {
      uplink: { RSSI: -80, SNR: 7, SF: 9 },
      payload_decoded: { pressure: 1013, label: 'x', temperature: 99 },
      temperature: 21.5,
      humidity: null,
      LAT: null,
      LON: null,
      geoloc_LAT: 52.1,
      geoloc_LON: 5.1,
    } as unknown as UplinkRecordWire;
    expect(memberValue(row, 'temperature')).toBe(21.5);
    expect(memberValue(row, 'pressure')).toBe(1013);
    expect(memberValue(row, 'RSSI')).toBe(-80);
    expect(memberValue(row, 'label')).toBeNull();
    expect(memberValue(row, 'humidity')).toBeNull();
    expect(uplinkPosition(row)).toEqual({ lon: 5.1, lat: 52.1 });
    expect(uplinkPosition({ ...row, LAT: 1, LON: 2 })).toEqual({ lon: 2, lat: 1 });
  });
});

describe('rule definitions', () => {
  const base: RuleDefinition = {
    name: 'r',
    kind: 'fence',
    enabled: true,
    devices: null,
    email: false,
    fence: null,
    on: null,
    minutes: null,
    member: null,
    above: null,
    below: null,
    hysteresis: null,
    measure: null,
  };
  it('names what each kind lacks or must not have', () => {
    expect(ruleProblems({ ...base, fence: 1, on: 'leave' })).toEqual([]);
    expect(ruleProblems(base).map((p) => p.field)).toEqual(['fence', 'on']);
    expect(ruleProblems({ ...base, kind: 'offline', minutes: 5, member: 't' })).toEqual([
      { field: 'member', message: 'member is not a member of a offline rule' },
    ]);
    expect(ruleProblems({ ...base, kind: 'threshold', member: 't', above: 1, below: 0 }).map((p) => p.field)).toEqual(['below']);
    expect(ruleProblems({ ...base, kind: 'threshold', member: 't' }).map((p) => p.field)).toEqual(['above']);
    expect(ruleProblems({ ...base, kind: 'threshold', member: 't', below: 3, hysteresis: 1 })).toEqual([]);
    expect(ruleProblems({ ...base, kind: 'battery', measure: 'percent', below: 120 }).map((p) => p.field)).toEqual(['below']);
    expect(ruleProblems({ ...base, kind: 'battery', measure: 'voltage', below: 3.3 })).toEqual([]);
  });
});
