import { dtEnvironmentDecoder, encodeDtEnvironment, polygonProblem } from '@dts/domain';
import { demoWindow, distanceMetres, pointAlong, routeBoundingRing, trackerTrack, type TrackOptions, VONDELPARK_LOOP } from './demo-routes';
import { cameraStatusSeries, environmentSeries, type EnvironmentOptions } from './demo-series';
import { Prng } from './prng';

describe('demo generators', () => {
  const now = new Date('2026-05-01T12:34:00Z');
  const window = demoWindow(now, 2, 600);
  const track: TrackOptions = {
    route: VONDELPARK_LOOP,
    seed: 7,
    ...window,
    intervalSeconds: 600,
    lapMinutes: 90,
    phase: 0,
    reverse: false,
    restFromHour: 22,
    restToHour: 6,
    utcOffsetHours: 2,
    batteryStartMv: 4150,
    batteryDrainMvPerDay: 40,
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
    const [southWest, , northEast] = ring;
    const [west, south] = southWest!;
    const [east, north] = northEast!;
    for (const p of points) {
      expect(p.lat).toBeGreaterThan(south);
      expect(p.lat).toBeLessThan(north);
      expect(p.lon).toBeGreaterThan(west);
      expect(p.lon).toBeLessThan(east);
    }
    expect(points.at(-1)!.batteryMv).toBeLessThan(points[0]!.batteryMv - 50);
  });

  it('walks the loop by length: start and end meet, the middle is the far end', () => {
    expect(pointAlong(VONDELPARK_LOOP, 0)).toEqual(VONDELPARK_LOOP.waypoints[0]);
    expect(distanceMetres(pointAlong(VONDELPARK_LOOP, 0.999_999), VONDELPARK_LOOP.waypoints[0]!)).toBeLessThan(1);
    expect(distanceMetres(pointAlong(VONDELPARK_LOOP, 0.5), VONDELPARK_LOOP.waypoints[0]!)).toBeGreaterThan(1200);
  });

  it('makes afternoons warmer and drier than nights', () => {
    const options: EnvironmentOptions = {
      seed: 11,
      ...demoWindow(now, 3, 900),
      intervalSeconds: 900,
      meanTemperature: 13,
      swing: 5,
      meanHumidity: 72,
      utcOffsetHours: 2,
      batteryStartMv: 3610,
    };
    const series = environmentSeries(options);
    expect(series).toHaveLength(288);
    const at = (hour: number) => series.filter((r) => new Date((r.tsUnix + 2 * 3600) * 1000).getUTCHours() === hour);
    const mean = (rs: typeof series, k: 'temperature' | 'humidity') => rs.reduce((s, r) => s + r[k], 0) / rs.length;
    expect(mean(at(15), 'temperature')).toBeGreaterThan(mean(at(3), 'temperature') + 6);
    expect(mean(at(15), 'humidity')).toBeLessThan(mean(at(3), 'humidity') - 10);
    expect(at(2).every((r) => r.illuminance === 0)).toBe(true);
    expect(Math.max(...at(13).map((r) => r.illuminance))).toBeGreaterThan(10_000);
    for (const r of series)
      expect(dtEnvironmentDecoder(encodeDtEnvironment(r), 1).decoded).toMatchObject({ temperature: r.temperature, humidity: r.humidity, pressure: r.pressure });
  });

  it('counts the camera trap’s photos as they are taken', () => {
    const w = demoWindow(now, 3, 6 * 3600);
    const series = cameraStatusSeries({ seed: 5, ...w, intervalSeconds: 6 * 3600, captures: [w.from - 100, w.to - 100], utcOffsetHours: 2 });
    expect(series[0]!.photos).toBe(213);
    expect(series.at(-1)!.photos).toBe(214);
    expect(series.at(-1)!.storageFreeMb).toBeLessThan(series[0]!.storageFreeMb);
  });
});
