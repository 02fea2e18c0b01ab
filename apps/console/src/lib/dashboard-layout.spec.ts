import { checkDashboardWidgets, type DashboardWidget } from '@dts/domain';
import { i18n } from '../i18n';
import { editorReducer, type EditorState, freeSpot, kindName, moveWidget, overlaps, readingOrder, resizeWidget } from './dashboard-layout';
import { latestValue, mergeSeries, numericMembers } from './dashboard-data';

const tile = (id: string, x: number, y: number, w = 3, h = 2): DashboardWidget => ({
  id,
  kind: 'latest',
  title: null,
  x,
  y,
  w,
  h,
  options: { device: '70B3D57ED0000001', member: 'temperature' },
});
const noOverlap = (widgets: DashboardWidget[]) => widgets.every((a, i) => widgets.every((b, j) => i === j || !overlaps(a, b)));
const at = (widgets: DashboardWidget[]) => Object.fromEntries(widgets.map((w) => [w.id, [w.x, w.y, w.w, w.h]]));

describe('the dashboard layout', () => {
  it('moves a widget by a cell, within the grid', () => {
    const widgets = [tile('a', 0, 0)];
    expect(at(moveWidget(widgets, 'a', 1, 0))).toEqual({ a: [1, 0, 3, 2] });
    expect(at(moveWidget(widgets, 'a', -1, -1))).toEqual({ a: [0, 0, 3, 2] });
    expect(at(moveWidget([tile('a', 9, 0)], 'a', 1, 0))).toEqual({ a: [9, 0, 3, 2] });
  });

  it('pushes what a moved widget lands on down below it, and what that lands on in turn', () => {
    const widgets = [tile('a', 0, 2), tile('b', 0, 0), tile('c', 0, 4)];
    const moved = moveWidget(widgets, 'a', 0, -1);
    expect(at(moved)).toEqual({ a: [0, 1, 3, 2], b: [0, 3, 3, 2], c: [0, 5, 3, 2] });
    expect(noOverlap(moved)).toBe(true);
    // The service takes the result as it is.
    expect(checkDashboardWidgets(moved).problems).toEqual([]);
  });

  it('grows a widget (leftwards at the right edge) and makes room below it', () => {
    const widgets = [tile('a', 9, 0), tile('b', 6, 2)];
    const wider = resizeWidget(widgets, 'a', 1, 0);
    expect(at(wider).a).toEqual([8, 0, 4, 2]);
    const taller = resizeWidget(wider, 'a', 0, 1);
    expect(at(taller)).toEqual({ a: [8, 0, 4, 3], b: [6, 3, 3, 2] });
    expect(at(resizeWidget([tile('a', 0, 0, 1, 1)], 'a', -1, -1)).a).toEqual([0, 0, 1, 1]);
  });

  it('adds a widget at the first free place that fits, with an id not yet used', () => {
    expect(freeSpot([tile('a', 0, 0, 8, 4)], 4, 2)).toEqual({ x: 8, y: 0 });
    expect(freeSpot([tile('a', 0, 0, 8, 4)], 6, 2)).toEqual({ x: 0, y: 4 });
    const state: EditorState = { name: 'd', shared_role: null, widgets: [tile('latest-1', 0, 0)], dirty: false };
    const next = editorReducer(state, { type: 'add', widget: { kind: 'latest', title: null, options: { device: '70B3D57ED0000001', member: 'humidity' } } });
    expect(next.dirty).toBe(true);
    expect(next.widgets[1]).toMatchObject({ id: 'latest-2', x: 3, y: 0, w: 3, h: 2 });
  });

  it('orders widgets for reading by row, then column', () => {
    expect(readingOrder([tile('c', 0, 4), tile('b', 4, 0), tile('a', 0, 0)]).map((w) => w.id)).toEqual(['a', 'b', 'c']);
  });
});

describe('the data of dashboard widgets', () => {
  const row = (time: number, values: Record<string, unknown>, decoded: Record<string, unknown> = {}) =>
    ({
      uplink: { time_stamp_unix: time },
      payload_decoded: decoded,
      temperature: null,
      humidity: null,
      battery_percent: null,
      battery_voltage: null,
      ALT: null,
      ...values,
    }) as never;

  it('finds the newest value of a column or a decoded number', () => {
    const rows = [row(30, {}, { co2: 700 }), row(20, { temperature: 21.5 }), row(10, { temperature: 20 })];
    expect(latestValue(rows, 'temperature')).toEqual({ value: 21.5, at: 20 });
    expect(latestValue(rows, 'co2')).toEqual({ value: 700, at: 30 });
    expect(latestValue(rows, 'humidity')).toBeNull();
    expect(numericMembers(rows)).toEqual(['temperature', 'co2']);
  });

  it('merges devices’ series onto the union of their buckets', () => {
    const series = (t: number[], avg: (number | null)[]) =>
      ({ from: 0, to: 100, interval: '1m', interval_s: 60, t, members: { temperature: { avg } }, rollup_backfill_until_unix: null }) as never;
    const merged = mergeSeries([
      { eui: 'A', series: series([0, 120], [1, 2]) },
      { eui: 'B', series: series([60, 120], [5, 6]) },
    ])!;
    expect(merged.t).toEqual([0, 60, 120]);
    expect(merged.members).toEqual({ 'A.temperature': { avg: [1, null, 2] }, 'B.temperature': { avg: [null, 5, 6] } });
    expect(mergeSeries([])).toBeNull();
  });
});

describe('kindName', () => {
  it('names a widget kind in the console’s language', async () => {
    expect(kindName('latest')).toBe('Latest value');
    await i18n.changeLanguage('de');
    try {
      expect(kindName('latest')).toBe('Neuester Wert');
      expect(kindName('alerts')).toBe('Alarmliste');
    } finally {
      await i18n.changeLanguage('en');
    }
  });
});
