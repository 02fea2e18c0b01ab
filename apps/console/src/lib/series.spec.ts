import type { SeriesWire } from '@dts/domain';
import { rangeOf, timeAxisRange, toChartData } from './series';

const base: SeriesWire = { from: 0, to: 10_000, interval: '1h', interval_s: 3600, t: [], members: {}, rollup_backfill_until_unix: null };

describe('toChartData', () => {
  it('aligns columns with time and breaks the line where buckets are missing', () => {
    const series = {
      ...base,
      t: [0, 3600, 7200, 10_800, 25_200],
      members: { temperature: { avg: [1, 2, 3, 4, 5], min: [1, 2, 3, 4, 5], max: [1, 2, 3, 4, 5], count: [1, 1, 1, 1, 1] } },
    };
    const { data, lines } = toChartData(series, ['temperature']);
    expect(data).toEqual([
      [0, 3600, 7200, 10_800, 14_400, 25_200],
      [1, 2, 3, 4, null, 5],
    ]);
    // One uplink per bucket: no band.
    expect(lines).toEqual([{ member: 'temperature', avg: 1, min: null, max: null }]);
  });

  it('adds min and max bands when buckets aggregate several uplinks', () => {
    const series = {
      ...base,
      t: [0, 3600],
      members: {
        temperature: { avg: [1, 2], min: [0, 1], max: [2, 3], count: [4, 4] },
        humidity: { avg: [50, 51], min: [50, 51], max: [50, 51], count: [1, 1] },
      },
    };
    const { data, lines } = toChartData(series, ['temperature', 'humidity', 'absent']);
    expect(data).toEqual([
      [0, 3600],
      [1, 2],
      [0, 1],
      [2, 3],
      [50, 51],
    ]);
    expect(lines).toEqual([
      { member: 'temperature', avg: 1, min: 2, max: 3 },
      { member: 'humidity', avg: 4, min: null, max: null },
    ]);
  });

  it('does not break the line where buckets are finer than the device’s rhythm', () => {
    const series = { ...base, interval: '5m' as const, interval_s: 300, t: [0, 900, 1800, 2700], members: { humidity: { avg: [1, 2, 3, 4] } } };
    expect(toChartData(series, ['humidity']).data).toEqual([
      [0, 900, 1800, 2700],
      [1, 2, 3, 4],
    ]);
  });

  it('names ranges ending now', () => {
    expect(rangeOf('24h', 100_000)).toEqual({ from: 100_000 - 86_400, to: 100_000 });
  });
});

describe('timeAxisRange', () => {
  it('is the window the answer covers, not the span of its buckets', () => {
    // One 5-minute bucket in a 24-hour window: the axis spans the 24 hours.
    const day = { ...base, from: 1_800_000_000 - 86_400, to: 1_800_000_000, interval: '5m' as const, interval_s: 300, t: [1_799_990_000] };
    expect(timeAxisRange(day)).toEqual([1_800_000_000 - 86_400, 1_800_000_000]);
    expect(timeAxisRange({ ...base, from: 500, to: 500 })).toEqual([500, 4100]);
  });
});
