import { Prng } from './prng';
import type { TrackerPosition } from '@dts/domain';

export type LatLon = readonly [lat: number, lon: number];

/** A closed loop of waypoints (the last one leads back to the first). */
export interface DemoRoute {
  name: string;
  waypoints: readonly LatLon[];
  /** Where trackers wait at night and where the gateway stands. */
  depot: LatLon;
}

/** A loop along the north and south paths of the Vondelpark, Amsterdam. */
export const VONDELPARK_LOOP: DemoRoute = {
  name: 'Vondelpark loop',
  waypoints: [
    [52.3614, 4.8792],
    [52.3608, 4.8755],
    [52.36, 4.872],
    [52.3592, 4.8686],
    [52.3584, 4.865],
    [52.3574, 4.8614],
    [52.3562, 4.858],
    [52.3553, 4.8553],
    [52.3541, 4.8561],
    [52.3548, 4.8598],
    [52.3557, 4.8636],
    [52.3567, 4.8672],
    [52.3577, 4.8708],
    [52.3588, 4.8745],
    [52.3599, 4.878],
    [52.3607, 4.8803],
  ],
  depot: [52.3612, 4.8805],
};

const EARTH_RADIUS_M = 6_371_000;

/** Metres between two nearby positions (equirectangular: exact enough within a town). */
export function distanceMetres(a: LatLon, b: LatLon): number {
  const rad = Math.PI / 180;
  const x = (b[1] - a[1]) * rad * Math.cos(((a[0] + b[0]) / 2) * rad);
  const y = (b[0] - a[0]) * rad;
  return Math.hypot(x, y) * EARTH_RADIUS_M;
}

/** The position at `fraction` (0..1) of the loop's length. */
export function pointAlong(route: DemoRoute, fraction: number): LatLon {
  const [start, ...rest] = route.waypoints;
  if (!start) throw new Error(`route ${route.name} has no waypoints`);
  // The loop's legs in order, the last one leading back to the start.
  const legs: { from: LatLon; to: LatLon; metres: number }[] = [];
  let from = start;
  for (const to of [...rest, start]) {
    legs.push({ from, to, metres: distanceMetres(from, to) });
    from = to;
  }
  let remaining = (((fraction % 1) + 1) % 1) * legs.reduce((sum, leg) => sum + leg.metres, 0);
  for (const { from: a, to: b, metres } of legs) {
    if (remaining <= metres) {
      const f = metres === 0 ? 0 : remaining / metres;
      return [a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f];
    }
    remaining -= metres;
  }
  return start;
}

/** A closed GeoJSON ring ([lon, lat]) around the route's bounding box, `marginMetres` outside it. */
export function routeBoundingRing(route: DemoRoute, marginMetres: number): [number, number][] {
  const all = [...route.waypoints, route.depot];
  const dLat = marginMetres / 111_320;
  const midLat = all.reduce((s, p) => s + p[0], 0) / all.length;
  const dLon = dLat / Math.cos((midLat * Math.PI) / 180);
  const round = (n: number) => Number(n.toFixed(6));
  const south = round(Math.min(...all.map((p) => p[0])) - dLat);
  const north = round(Math.max(...all.map((p) => p[0])) + dLat);
  const west = round(Math.min(...all.map((p) => p[1])) - dLon);
  const east = round(Math.max(...all.map((p) => p[1])) + dLon);
  return [
    [west, south],
    [east, south],
    [east, north],
    [west, north],
    [west, south],
  ];
}

/** A tracker's report (without its counter) and how the gateway heard it. */
export interface TrackPoint extends Omit<TrackerPosition, 'uid'> {
  /** The gateway's reception of the report. */
  rssi: number;
  snr: number;
}

export interface TrackOptions {
  route: DemoRoute;
  seed: number;
  /** Unix seconds of the first and last report (both on the interval's grid). */
  from: number;
  to: number;
  intervalSeconds: number;
  /** Minutes one lap takes. */
  lapMinutes: number;
  /** Where along the loop the day starts (0..1), and whether it goes round the other way. */
  phase: number;
  reverse: boolean;
  /** The tracker rests at the depot between these local hours (its night). */
  restFromHour: number;
  restToHour: number;
  utcOffsetHours: number;
  batteryStartMv: number;
  /** Millivolts lost per day. */
  batteryDrainMvPerDay: number;
}

/** Battery percent of a Li-ion cell by its voltage (3.5 V empty, 4.2 V full, linear between). */
export function liIonPercent(mv: number): number {
  return Math.round(Math.min(100, Math.max(0, ((mv - 3500) / 700) * 100)));
}

/**
 * A tracker going round the route by day and resting at the depot by night, one report per
 * interval: GPS jitter of a few metres, a battery that slowly runs down, the signal weakening with
 * the distance to the gateway at the depot. The same options give the same track.
 */
export function trackerTrack(o: TrackOptions): TrackPoint[] {
  const rng = new Prng(o.seed);
  const points: TrackPoint[] = [];
  const lapSeconds = o.lapMinutes * 60;
  const restHours = (24 + o.restFromHour - o.restToHour) % 24;
  for (let t = o.from; t <= o.to; t += o.intervalSeconds) {
    const localSeconds = (((t + o.utcOffsetHours * 3600) % 86_400) + 86_400) % 86_400;
    const sinceStart = (localSeconds - o.restToHour * 3600 + 86_400) % 86_400;
    const resting = sinceStart >= (24 - restHours) * 3600;
    const fraction = sinceStart / lapSeconds + o.phase;
    const [lat, lon] = resting ? o.route.depot : pointAlong(o.route, o.reverse ? 1 - (fraction % 1) : fraction);
    const dop = Number((resting ? rng.between(0.8, 1.2) : rng.between(0.9, 2.4)).toFixed(1));
    const jitter = 2.5e-5 * dop;
    const position: LatLon = [Number((lat + rng.noise(jitter)).toFixed(7)), Number((lon + rng.noise(jitter * 1.6)).toFixed(7))];
    const distance = Math.max(10, distanceMetres(position, o.route.depot));
    const rssi = Math.round(-55 - 22 * Math.log10(distance / 10) + rng.noise(2));
    const batteryMv = Math.round(o.batteryStartMv - ((t - o.from) / 86_400) * o.batteryDrainMvPerDay + rng.noise(3));
    points.push({
      tsUnix: t,
      lat: position[0],
      lon: position[1],
      alt: Math.round(2 + rng.noise(1.5)),
      ttf: Math.round(rng.between(3, resting ? 8 : 25)),
      dop,
      batteryMv,
      batteryPercent: liIonPercent(batteryMv),
      rssi,
      snr: Number(Math.min(12, Math.max(-15, 9 + (rssi + 80) / 4 + rng.noise(1))).toFixed(1)),
    });
  }
  return points;
}

/** Unix seconds of the last grid point at or before `now`, and the first one `days` before it. */
export function demoWindow(now: Date, days: number, intervalSeconds: number): { from: number; to: number } {
  const to = Math.floor(now.getTime() / 1000 / intervalSeconds) * intervalSeconds;
  return { from: to - days * 86_400 + intervalSeconds, to };
}
