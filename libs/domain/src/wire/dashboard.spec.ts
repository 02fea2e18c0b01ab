import { checkDashboardWidgets, DASHBOARD_MAX_WIDGETS, widgetDevices } from './dashboard';

const EUI = '70B3D57ED0000001';
const tile = (over: Record<string, unknown> = {}) => ({
  id: 't',
  kind: 'latest',
  title: null,
  x: 0,
  y: 0,
  w: 3,
  h: 2,
  options: { device: EUI, member: 'temperature' },
  ...over,
});

/** The widgets of a dashboard as the service takes them (docs/api.md §21): strict, every problem named by its field. */
describe('checkDashboardWidgets', () => {
  it('takes each kind, normalising EUIs and an empty title', () => {
    const { widgets, problems } = checkDashboardWidgets([
      tile({ title: '', options: { device: '70-b3-d5-7e-d0-00-00-01', member: 'temperature' } }),
      { id: 'c', kind: 'chart', title: 'T', x: 3, y: 0, w: 9, h: 4, options: { devices: [EUI.toLowerCase()], members: ['temperature'], period: '7d' } },
      { id: 'g', kind: 'gauge', title: null, x: 0, y: 2, w: 3, h: 2, options: { device: EUI, member: 'co2', min: 400, max: 2000 } },
      { id: 'm', kind: 'map', title: null, x: 0, y: 4, w: 6, h: 4, options: { devices: [EUI], period: '1h' } },
      { id: 'a', kind: 'alerts', title: null, x: 6, y: 4, w: 6, h: 4, options: { state: 'all' } },
    ]);
    expect(problems).toEqual([]);
    expect(widgets[0]).toEqual(tile({ options: { device: EUI, member: 'temperature' } }));
    expect(widgets[1]!.options).toEqual({ devices: [EUI], members: ['temperature'], period: '7d' });
    expect(widgets[4]!.options).toEqual({ devices: [], state: 'all' });
    expect(widgets.flatMap((w, i) => widgetDevices(w, i))).toEqual([
      { eui: EUI, field: 'widgets.0.options.device' },
      { eui: EUI, field: 'widgets.1.options.devices' },
      { eui: EUI, field: 'widgets.2.options.device' },
      { eui: EUI, field: 'widgets.3.options.devices' },
    ]);
  });

  it('names every problem by its field, and nothing else', () => {
    const fields = (value: unknown) => checkDashboardWidgets(value).problems.map((p) => p.field);
    expect(fields(null)).toEqual(['widgets']);
    expect(fields(Array.from({ length: DASHBOARD_MAX_WIDGETS + 1 }, (_, i) => tile({ id: `t${i}`, y: i * 2 })))).toEqual(['widgets']);
    expect(fields([tile({ x: 11, w: 3 }), tile({ id: 'u', y: 4, h: 13 })])).toEqual(['widgets.0.x', 'widgets.1.h']);
    expect(fields([tile(), tile({ id: 'u', x: 2 })])).toEqual(['widgets.1.y']);
    expect(fields([tile({ options: { device: EUI, member: 'temperature', min: 1 } })])).toEqual(['widgets.0.options.min']);
    expect(fields([tile({ kind: 'gauge', options: { device: EUI, member: 'x', min: 5, max: Number.NaN } })])).toEqual(['widgets.0.options.max']);
    expect(fields([tile({ kind: 'chart', options: { devices: [EUI], members: ['a', 'b', 'c', 'd', 'e', 'f', 'g'], period: '1h' } })])).toEqual([
      'widgets.0.options.members',
    ]);
    expect(fields([tile({ y: 199 })])).toEqual(['widgets.0.y']);
  });
});
