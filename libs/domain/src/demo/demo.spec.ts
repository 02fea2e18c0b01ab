import { cayenneLppDecoder } from '../decoders/cayenne-lpp';
import { dtCameraTrapDecoder } from '../decoders/dt-camera-trap';
import { dtEnvironmentDecoder } from '../decoders/dt-environment';
import { dtTrackerDecoder } from '../decoders/dt-tracker';
import { polygonProblem } from '../wire/fence';
import { demoWindow, distanceMetres, pointAlong, routeBoundingRing, trackerTrack, type TrackOptions, VONDELPARK_LOOP } from './demo-routes';
import { cameraStatusSeries, environmentSeries, type EnvironmentOptions } from './demo-series';
import { Prng } from './prng';
import { encodeCayenneLpp, encodeDtCameraTrapStatus, encodeDtEnvironment, encodeDtTrackerPosition } from './uplink-encoders';

describe('uplink encoders (checked by the decoders)', () => {
  it('encodes a DT Tracker position report that decodes to the same values', () => {
    const bytes = encodeDtTrackerPosition({ tsUnix: 1_777_000_000, lat: 52.3592123, lon: -4.8686456, alt: -3, ttf: 12, dop: 1.3, batteryMv: 4012, batteryPercent: 73, uid: 65 });
    expect(bytes).toHaveLength(28);
    const r = dtTrackerDecoder(bytes, 1);
    expect(r.valid).toBe(true);
    expect(r.decoded).toMatchObject({ ts_unix: 1_777_000_000, lat: 52.3592123, lon: -4.8686456, alt: -3, ttf: 12, dop: 1.3, bat: 4012, bat_lora: 3712, bat_percent: 73, uid: 65, firmware_version: '1.4.212' });
    expect(r.measurements).toMatchObject({ lat: 52.3592123, lon: -4.8686456, battery_voltage: 4.012 });
  });

  it('encodes a DT Environment report, negative temperature included', () => {
    const r = dtEnvironmentDecoder(encodeDtEnvironment({ temperature: -3.27, humidity: 81.5, pressure: 1009.4, illuminance: 12_345, co2: 431, batteryMv: 3590, batteryPercent: 13 }), 1);
    expect(r.valid).toBe(true);
    expect(r.decoded).toEqual({ temperature: -3.27, humidity: 81.5, pressure: 1009.4, illuminance: 12_345, co2: 431, bat: 3590, bat_percent: 13 });
  });

  it('encodes a DT Camera Trap status', () => {
    const r = dtCameraTrapDecoder(encodeDtCameraTrapStatus({ batteryMv: 6100, batteryPercent: 81, temperature: 9.5, photos: 215, storageFreeMb: 27_755, sdOk: true, pirEnabled: true, nightMode: false }), 3);
    expect(r.decoded).toEqual({ bat: 6100, bat_percent: 81, temperature: 9.5, photos: 215, storage_free_mb: 27_755, sd_ok: true, pir_enabled: true, night_mode: false });
  });

  it('encodes Cayenne LPP GPS, temperature, humidity and voltage as the public format describes', () => {
    const gps = encodeCayenneLpp([{ channel: 1, type: 'gps', lat: 42.3519, lon: -87.9094, alt: 10 }]);
    // The vector of the format description.
    expect(Buffer.from(gps).toString('hex')).toBe('018806765ff2960a0003e8');
    const r = cayenneLppDecoder(
      encodeCayenneLpp([
        { channel: 1, type: 'temperature', value: -4.1 },
        { channel: 2, type: 'humidity', value: 48.5 },
        { channel: 3, type: 'voltage', value: 3.5 },
        { channel: 4, type: 'barometer', value: 1015 },
      ]),
      1,
    );
    expect(r.decoded).toMatchObject({ temperature: -4.1, humidity: 48.5, voltage_3: 3.5, barometer_4: 1015 });
    expect(r.measurements).toMatchObject({ temperature: -4.1, humidity: 48.5, battery_voltage: 3.5 });
  });

  it('clamps values to what the layout can carry', () => {
    const r = dtEnvironmentDecoder(encodeDtEnvironment({ temperature: 400, humidity: 130, pressure: 1000, illuminance: 100_000, co2: -5, batteryMv: 3000, batteryPercent: 150 }), 1);
    expect(r.decoded).toMatchObject({ temperature: 327.66, humidity: 100, illuminance: 65_535, co2: 0, bat_percent: 150 });
  });
});

describe('demo generators', () => {
  const now = new Date('2026-05-01T12:34:00Z');
  const window = demoWindow(now, 2, 600);
  const track: TrackOptions = {
    route: VONDELPARK_LOOP, seed: 7, ...window, intervalSeconds: 600, lapMinutes: 90, phase: 0, reverse: false,
    restFromHour: 22, restToHour: 6, utcOffsetHours: 2, batteryStartMv: 4150, batteryDrainMvPerDay: 40,
  };

  it('gives the same numbers for the same seed and different ones for another', () => {
    expect(new Prng(3).next()).toBe(new Prng(3).next());
    expect(new Prng(3).next()).not.toBe(new Prng(4).next());
    expect(trackerTrack(track)).toEqual(trackerTrack(track));
    expect(trackerTrack({ ...track, seed: 8 })).not.toEqual(trackerTrack(track));
  });

  it('puts the window on the interval grid, ending at or before now', () => {
    expect(window.to % 600).toBe(0);
    expect(window.to).toBeLessThanOrEqual(now.getTime() / 1000);
    expect((window.to - window.from) / 600 + 1).toBe(288);
  });

  it('follows the loop by day, a few metres off it at most, and rests at the depot by night', () => {
    const points = trackerTrack(track);
    expect(points).toHaveLength(288);
    const byDay = points.filter((p) => {
      const hour = new Date((p.tsUnix + 2 * 3600) * 1000).getUTCHours();
      return hour >= 6 && hour < 22;
    });
    const byNight = points.filter((p) => !byDay.includes(p));
    expect(new Set(byDay.map((p) => `${p.lat.toFixed(3)},${p.lon.toFixed(3)}`)).size).toBeGreaterThan(10);
    for (const p of byNight) expect(distanceMetres([p.lat, p.lon], VONDELPARK_LOOP.depot)).toBeLessThan(25);
    const ring = routeBoundingRing(VONDELPARK_LOOP, 150);
    expect(polygonProblem({ type: 'Polygon', coordinates: [ring] })).toBeNull();
    const [[west, south], , [east, north]] = ring;
    for (const p of points) {
      expect(p.lat).toBeGreaterThan(south);
      expect(p.lat).toBeLessThan(north);
      expect(p.lon).toBeGreaterThan(west);
      expect(p.lon).toBeLessThan(east);
    }
    expect(points.at(-1)!.batteryMv).toBeLessThan(points[0].batteryMv - 50);
  });

  it('walks the loop by length: start and end meet, the middle is the far end', () => {
    expect(pointAlong(VONDELPARK_LOOP, 0)).toEqual(VONDELPARK_LOOP.waypoints[0]);
    expect(distanceMetres(pointAlong(VONDELPARK_LOOP, 0.999_999), VONDELPARK_LOOP.waypoints[0])).toBeLessThan(1);
    expect(distanceMetres(pointAlong(VONDELPARK_LOOP, 0.5), VONDELPARK_LOOP.waypoints[0])).toBeGreaterThan(1200);
  });

  it('makes afternoons warmer and drier than nights', () => {
    const options: EnvironmentOptions = { seed: 11, ...demoWindow(now, 3, 900), intervalSeconds: 900, meanTemperature: 13, swing: 5, meanHumidity: 72, utcOffsetHours: 2, batteryStartMv: 3610 };
    const series = environmentSeries(options);
    expect(series).toHaveLength(288);
    const at = (hour: number) => series.filter((r) => new Date((r.tsUnix + 2 * 3600) * 1000).getUTCHours() === hour);
    const mean = (rs: typeof series, k: 'temperature' | 'humidity') => rs.reduce((s, r) => s + r[k], 0) / rs.length;
    expect(mean(at(15), 'temperature')).toBeGreaterThan(mean(at(3), 'temperature') + 6);
    expect(mean(at(15), 'humidity')).toBeLessThan(mean(at(3), 'humidity') - 10);
    expect(at(2).every((r) => r.illuminance === 0)).toBe(true);
    expect(Math.max(...at(13).map((r) => r.illuminance))).toBeGreaterThan(10_000);
    for (const r of series) expect(dtEnvironmentDecoder(encodeDtEnvironment(r), 1).decoded).toMatchObject({ temperature: r.temperature, humidity: r.humidity, pressure: r.pressure });
  });

  it('counts the camera trap’s photos as they are taken', () => {
    const w = demoWindow(now, 3, 6 * 3600);
    const series = cameraStatusSeries({ seed: 5, ...w, intervalSeconds: 6 * 3600, captures: [w.from - 100, w.to - 100], utcOffsetHours: 2 });
    expect(series[0].photos).toBe(213);
    expect(series.at(-1)!.photos).toBe(214);
    expect(series.at(-1)!.storageFreeMb).toBeLessThan(series[0].storageFreeMb);
  });
});
