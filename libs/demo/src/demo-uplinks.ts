import { encodeCayenneLpp, encodeDtCameraTrapStatus, encodeDtEnvironment, encodeDtTrackerPosition } from '@dts/domain';
import { DEMO_DEVICES, DEMO_GATEWAY, DEMO_PHOTOS, DEMO_ROUTE, DEMO_UTC_OFFSET_HOURS } from './demo-devices';
import { demoWindow, trackerTrack } from './demo-routes';
import { cameraStatusSeries, environmentSeries } from './demo-series';
import { Prng } from './prng';

export type DemoKey = keyof typeof DEMO_DEVICES;

/** One item of POST /ingest/rest. */
export interface RestUplink {
  devEUI: string;
  port: number;
  payload_hex: string;
  time_stamp_unix: number;
  fcnt: number;
  network: string;
  SF: number;
  gateways: { gateway_id: string; rssi: number; snr: number; lat: number; lon: number }[];
}

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex').toUpperCase();
export const TEN_MINUTES = 600;
export const QUARTER_HOUR = 900;
const SIX_HOURS = 21_600;

/** The local capture time of a photo as a UTC instant, always in the past. */
export function captureTime(p: { daysBack: number; localHour: number }, now: Date): Date {
  const offset = DEMO_UTC_OFFSET_HOURS * 3_600_000;
  const localMidnight = Math.floor((now.getTime() + offset) / 86_400_000) * 86_400_000;
  return new Date(localMidnight - p.daysBack * 86_400_000 + Math.round(p.localHour * 3600) * 1000 - offset);
}

/**
 * The demo devices' uplinks over the demo window, as POST /ingest/rest items: the bytes each family
 * sends (its uplink encoder), the radio a park gateway would hear. Only for the devices in `fresh`.
 */
export function demoUplinks(fresh: ReadonlySet<DemoKey>, now: Date): RestUplink[] {
  const items: RestUplink[] = [];
  const radio = (eui: string, seed: number, baseRssi = -92) => {
    const rng = new Prng(seed);
    let fcnt = 1000;
    return (tsUnix: number, port: number, payload: Uint8Array, rssi = baseRssi + rng.noise(3), sf = 9): RestUplink => {
      const snr = Math.min(12, Math.max(-15, 9 + (rssi + 80) / 4 + rng.noise(1)));
      return {
        devEUI: eui,
        port,
        payload_hex: hex(payload),
        time_stamp_unix: tsUnix,
        fcnt: fcnt++,
        network: 'Simulated',
        SF: sf,
        gateways: [
          { gateway_id: DEMO_GATEWAY.id, rssi: Math.round(rssi), snr: Number(snr.toFixed(1)), lat: DEMO_GATEWAY.position[0], lon: DEMO_GATEWAY.position[1] },
        ],
      };
    };
  };
  const trackWindow = demoWindow(now, 2, TEN_MINUTES);
  const common = { route: DEMO_ROUTE, ...trackWindow, intervalSeconds: TEN_MINUTES, restFromHour: 22, restToHour: 6, utcOffsetHours: DEMO_UTC_OFFSET_HOURS };
  if (fresh.has('patrolBike')) {
    const send = radio(DEMO_DEVICES.patrolBike.eui, 101);
    const track = trackerTrack({ ...common, seed: 1, lapMinutes: 80, phase: 0, reverse: false, batteryStartMv: 4120, batteryDrainMvPerDay: 45 });
    for (const [i, p] of track.entries()) items.push(send(p.tsUnix, 1, encodeDtTrackerPosition({ ...p, uid: i + 1 }), p.rssi, p.rssi < -100 ? 10 : 8));
  }
  if (fresh.has('rangerCart')) {
    const send = radio(DEMO_DEVICES.rangerCart.eui, 102);
    const track = trackerTrack({ ...common, seed: 2, lapMinutes: 130, phase: 0.35, reverse: true, batteryStartMv: 4010, batteryDrainMvPerDay: 60 });
    for (const p of track) {
      const payload = encodeCayenneLpp([
        { channel: 1, type: 'gps', lat: p.lat, lon: p.lon, alt: p.alt },
        { channel: 2, type: 'voltage', value: p.batteryMv / 1000 },
      ]);
      items.push(send(p.tsUnix, 1, payload, p.rssi, p.rssi < -100 ? 10 : 8));
    }
  }
  const envWindow = demoWindow(now, 3, QUARTER_HOUR);
  if (fresh.has('meadow')) {
    const send = radio(DEMO_DEVICES.meadow.eui, 103);
    const series = environmentSeries({
      seed: 3,
      ...envWindow,
      intervalSeconds: QUARTER_HOUR,
      meanTemperature: 12.5,
      swing: 5.5,
      meanHumidity: 74,
      utcOffsetHours: DEMO_UTC_OFFSET_HOURS,
      batteryStartMv: 3640,
    });
    for (const r of series) items.push(send(r.tsUnix, 1, encodeDtEnvironment(r)));
  }
  if (fresh.has('pond')) {
    const send = radio(DEMO_DEVICES.pond.eui, 104, -84);
    const series = environmentSeries({
      seed: 4,
      ...envWindow,
      intervalSeconds: QUARTER_HOUR,
      meanTemperature: 11.5,
      swing: 3.5,
      meanHumidity: 84,
      utcOffsetHours: DEMO_UTC_OFFSET_HOURS,
      batteryStartMv: 3580,
    });
    for (const r of series) {
      const payload = encodeCayenneLpp([
        { channel: 1, type: 'temperature', value: r.temperature },
        { channel: 2, type: 'humidity', value: r.humidity },
        { channel: 3, type: 'barometer', value: r.pressure },
        { channel: 4, type: 'voltage', value: r.batteryMv / 1000 },
      ]);
      items.push(send(r.tsUnix, 1, payload));
    }
  }
  if (fresh.has('cameraTrap')) {
    const send = radio(DEMO_DEVICES.cameraTrap.eui, 105, -97);
    const captures = DEMO_PHOTOS.map((p) => captureTime(p, now).getTime() / 1000);
    const series = cameraStatusSeries({
      seed: 5,
      ...demoWindow(now, 3, SIX_HOURS),
      intervalSeconds: SIX_HOURS,
      captures,
      utcOffsetHours: DEMO_UTC_OFFSET_HOURS,
    });
    for (const s of series) items.push(send(s.tsUnix, 3, encodeDtCameraTrapStatus({ ...s, sdOk: true, pirEnabled: true })));
  }
  return items;
}
