import { liIonPercent } from './demo-routes';
import { Prng } from './prng';
import type { EnvironmentReport } from '@dts/domain';

export interface EnvironmentReading extends EnvironmentReport {
  tsUnix: number;
}

export interface EnvironmentOptions {
  seed: number;
  from: number;
  to: number;
  intervalSeconds: number;
  /** Daily mean and half the day-night swing, °C. */
  meanTemperature: number;
  swing: number;
  meanHumidity: number;
  utcOffsetHours: number;
  batteryStartMv: number;
}

const DAY = 86_400;
const clamp = (v: number, min: number, max: number) => Math.min(max, Math.max(min, v));

/** Local hour of the day (fractional). */
function localHour(tsUnix: number, utcOffsetHours: number): number {
  return ((((tsUnix + utcOffsetHours * 3600) % DAY) + DAY) % DAY) / 3600;
}

/**
 * An outdoor sensor: temperature following the sun (coolest about 04:00, warmest about 16:00)
 * with a slow weather drift and noise, relative humidity moving against it, daylight
 * illuminance, pressure drifting over days. The same options give the same series.
 */
export function environmentSeries(o: EnvironmentOptions): EnvironmentReading[] {
  const rng = new Prng(o.seed);
  const readings: EnvironmentReading[] = [];
  for (let t = o.from; t <= o.to; t += o.intervalSeconds) {
    const hour = localHour(t, o.utcOffsetHours);
    const daily = Math.sin((2 * Math.PI * (hour - 10)) / 24);
    const weather = Math.sin((2 * Math.PI * t) / (3.7 * DAY));
    const temperature = o.meanTemperature + o.swing * daily + 1.2 * weather + rng.noise(0.25);
    const humidity = clamp(o.meanHumidity - 2.6 * (temperature - o.meanTemperature) + rng.noise(1.5), 15, 100);
    const sun = Math.max(0, Math.sin((Math.PI * (hour - 6)) / 14));
    const cloud = 0.55 + 0.45 * Math.abs(Math.sin((2 * Math.PI * t) / (1.3 * DAY)));
    const batteryMv = Math.round(o.batteryStartMv - ((t - o.from) / DAY) * 4 + rng.noise(2));
    readings.push({
      tsUnix: t,
      temperature: Number(temperature.toFixed(2)),
      humidity: Math.round(humidity * 2) / 2,
      pressure: Number((1013 + 7 * Math.sin((2 * Math.PI * t) / (4.5 * DAY)) + rng.noise(0.3)).toFixed(1)),
      illuminance: Math.round(clamp(sun * cloud * 42_000 + (sun > 0 ? rng.noise(400) : 0), 0, 65_535)),
      co2: Math.round(418 + (sun > 0 ? 0 : 18) + rng.noise(6)),
      batteryMv,
      batteryPercent: liIonPercent(batteryMv),
    });
  }
  return readings;
}

export interface CameraStatusReading {
  tsUnix: number;
  temperature: number;
  batteryMv: number;
  batteryPercent: number;
  photos: number;
  storageFreeMb: number;
  nightMode: boolean;
}

/**
 * A camera trap's periodic status: the photo counter moving on at the given capture times, the
 * card filling up, the night mode on between 20:00 and 07:00 local.
 */
export function cameraStatusSeries(o: {
  seed: number;
  from: number;
  to: number;
  intervalSeconds: number;
  captures: readonly number[];
  utcOffsetHours: number;
}): CameraStatusReading[] {
  const rng = new Prng(o.seed);
  const readings: CameraStatusReading[] = [];
  for (let t = o.from; t <= o.to; t += o.intervalSeconds) {
    const hour = localHour(t, o.utcOffsetHours);
    const photos = 212 + o.captures.filter((c) => c <= t).length;
    const batteryMv = Math.round(6200 - ((t - o.from) / DAY) * 15 + rng.noise(4));
    readings.push({
      tsUnix: t,
      temperature: Number((11 + 5 * Math.sin((2 * Math.PI * (hour - 10)) / 24) + rng.noise(0.4)).toFixed(2)),
      batteryMv,
      // Four AA cells: 4.8 V empty, 6.4 V full.
      batteryPercent: Math.round(clamp(((batteryMv - 4800) / 1600) * 100, 0, 100)),
      photos,
      storageFreeMb: 28_400 - photos * 3,
      nightMode: hour >= 20 || hour < 7,
    });
  }
  return readings;
}
