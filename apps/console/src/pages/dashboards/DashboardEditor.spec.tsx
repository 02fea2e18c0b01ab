import { checkDashboardWidgets, type DashboardWidget, type DeviceMetaWire, successEnvelope } from '@dts/domain';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, configure, fireEvent, render, screen, within } from '@testing-library/react';
import type { EditorState } from '../../lib/dashboard-layout';

/*
 * The dashboard editor in jsdom, driven as a person does: widgets added through the form (its
 * checks before anything is sent), moved and resized by the buttons and by the arrow keys, changed,
 * removed, and the arrangement handed to Save as the service takes it. The form reads the data
 * model and the chosen devices' latest uplinks through the network, answered here with real
 * envelopes; the live widgets themselves are the Chromium spec's (apps/console/test/dashboards).
 */

const EUI = '70B3D57ED0000001';
const OTHER = '70B3D57ED0000002';
const device = (devEUI: string, label: string) => ({ devEUI, label, lat: null, lon: null }) as unknown as DeviceMetaWire;
const DEVICES = [device(EUI, 'Freezer'), device(OTHER, 'Cold room')];

const json = (data: unknown) => new Response(JSON.stringify(successEnvelope(data)), { status: 200, headers: { 'Content-Type': 'application/json' } });
globalThis.fetch = (async (input: RequestInfo | URL) => {
  const path = new URL(String(input)).pathname;
  if (path === '/datamodel')
    return json({
      data_types: [
        { uid: 1, alias: 'temperature', label: 'Temperature', unit: '°C' },
        { uid: 2, alias: 'humidity', label: 'Relative humidity', unit: '%' },
      ],
      networks: [],
      decoders: [],
      icons: [],
      device_types: [],
    });
  if (path.startsWith('/user/device/table/'))
    return json([
      {
        uplink: { time_stamp_unix: 100 },
        payload_decoded: { co2: 600 },
        temperature: 4.5,
        humidity: 80,
        battery_percent: null,
        battery_voltage: null,
        ALT: null,
      },
    ]);
  return new Response('{}', { status: 404 });
}) as typeof fetch;

let DashboardEditor: typeof import('./DashboardEditor').DashboardEditor;
beforeAll(async () => {
  ({ DashboardEditor } = await import('./DashboardEditor'));
});
afterEach(cleanup);
configure({ asyncUtilTimeout: 5_000 });

function renderEditor(widgets: DashboardWidget[] = [], shareable = true) {
  const saved: EditorState[] = [];
  const cancelled: boolean[] = [];
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <DashboardEditor
        initial={{ name: 'Cold store', shared_role: null, widgets }}
        devices={DEVICES}
        shareable={shareable}
        saving={false}
        error={null}
        onSave={(s) => saved.push(s)}
        onCancel={() => cancelled.push(true)}
      />
    </QueryClientProvider>,
  );
  return { saved, cancelled };
}

const tile = (id: string, x: number, y: number): DashboardWidget => ({
  id,
  kind: 'latest',
  title: `Tile ${id}`,
  x,
  y,
  w: 3,
  h: 2,
  options: { device: EUI, member: 'temperature' },
});
const widgetList = () => within(screen.getByRole('list', { name: 'Widgets' }));
const form = () => within(screen.getByRole('region', { name: /^(Add a widget|Change )/ }));
const save = () => fireEvent.click(screen.getByRole('button', { name: 'Save dashboard' }));

describe('DashboardEditor', () => {
  it('opens the widget form on an empty dashboard; the form names what is missing before anything is added', async () => {
    const { saved } = renderEditor();
    expect(screen.getByRole('heading', { name: 'Add a widget' })).toBeTruthy();
    fireEvent.click(form().getByRole('radio', { name: 'Gauge' }));
    fireEvent.change(form().getByLabelText(/^Highest value/), { target: { value: '-5' } });
    fireEvent.click(form().getByRole('button', { name: 'Add to the dashboard' }));
    expect(form().getByText('Choose the device.')).toBeTruthy();
    expect(form().getByText('Choose a measurement (letters, digits and _).')).toBeTruthy();
    expect(form().getByText('The highest value must be above the lowest.')).toBeTruthy();

    fireEvent.click(form().getByRole('radio', { name: /Freezer/ }));
    // The measurements the device's latest uplinks carry are offered.
    expect(await form().findByText('The latest uplinks carry Temperature, Relative humidity, co2.')).toBeTruthy();
    fireEvent.change(form().getByLabelText(/^Measurement/), { target: { value: 'temperature' } });
    fireEvent.change(form().getByLabelText(/^Lowest value/), { target: { value: '-30' } });
    fireEvent.change(form().getByLabelText(/^Highest value/), { target: { value: '10' } });
    fireEvent.click(form().getByRole('button', { name: 'Add to the dashboard' }));
    expect(screen.queryByRole('heading', { name: 'Add a widget' })).toBeNull();
    expect(widgetList().getByRole('listitem', { name: /^Gauge: Temperature of Freezer, column 1, row 1, 3 columns wide, 3 rows high$/ })).toBeTruthy();

    save();
    expect(saved).toHaveLength(1);
    expect(saved[0]!.widgets).toEqual([
      { id: 'gauge-1', kind: 'gauge', title: null, x: 0, y: 0, w: 3, h: 3, options: { device: EUI, member: 'temperature', min: -30, max: 10 } },
    ]);
    expect(checkDashboardWidgets(saved[0]!.widgets).problems).toEqual([]);
  });

  it('adds a chart of two devices with the measurements they carry, beside what is there', async () => {
    const { saved } = renderEditor([tile('a', 0, 0)]);
    fireEvent.click(screen.getByRole('button', { name: 'Add widget' }));
    fireEvent.click(form().getByRole('radio', { name: 'Chart' }));
    fireEvent.click(form().getByRole('checkbox', { name: /Freezer/ }));
    fireEvent.click(form().getByRole('checkbox', { name: /Cold room/ }));
    fireEvent.click(await form().findByRole('checkbox', { name: 'Relative humidity' }));
    fireEvent.change(form().getByLabelText('Period'), { target: { value: '7d' } });
    fireEvent.change(form().getByLabelText(/^Title/), { target: { value: 'Humidity' } });
    fireEvent.click(form().getByRole('button', { name: 'Add to the dashboard' }));
    save();
    expect(saved[0]!.widgets[1]).toEqual({
      id: 'chart-1',
      kind: 'chart',
      title: 'Humidity',
      x: 3,
      y: 0,
      w: 8,
      h: 4,
      options: { devices: [EUI, OTHER], members: ['humidity'], period: '7d' },
    });
  });

  it('moves and resizes by the buttons and the arrow keys, pushing what is in the way down, and says where each widget went', () => {
    const { saved } = renderEditor([tile('a', 0, 0), tile('b', 0, 2)]);
    const b = widgetList().getByRole('listitem', { name: /Tile b/ });
    expect((within(b).getByRole('button', { name: 'Move left' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(within(b).getByRole('button', { name: 'Move up' }));
    expect(screen.getByRole('status').textContent).toBe('Moved: Tile b is now at column 1, row 2, 3 columns wide, 2 rows high.');
    // Tile a was in the way: it went below.
    expect(widgetList().getByRole('listitem', { name: /Tile a, column 1, row 4/ })).toBeTruthy();

    const a = widgetList().getByRole('listitem', { name: /Tile a/ });
    fireEvent.keyDown(a, { key: 'ArrowRight' });
    fireEvent.keyDown(widgetList().getByRole('listitem', { name: /Tile a/ }), { key: 'ArrowRight', shiftKey: true });
    expect(widgetList().getByRole('listitem', { name: /^Latest value: Tile a, column 2, row 4, 4 columns wide, 2 rows high$/ })).toBeTruthy();
    fireEvent.click(within(widgetList().getByRole('listitem', { name: /Tile b/ })).getByRole('button', { name: 'Taller' }));
    fireEvent.click(within(widgetList().getByRole('listitem', { name: /Tile b/ })).getByRole('button', { name: 'Wider' }));

    save();
    const widgets = saved[0]!.widgets;
    expect(widgets.map((w) => [w.id, w.x, w.y, w.w, w.h])).toEqual([
      ['a', 1, 4, 4, 2],
      ['b', 0, 1, 4, 3],
    ]);
    expect(checkDashboardWidgets(widgets).problems).toEqual([]);
  });

  it('changes and removes widgets, renames and shares; an empty name is not saved; Cancel says whether anything would be lost', () => {
    const { saved, cancelled } = renderEditor([tile('a', 0, 0), tile('b', 3, 0)]);
    expect(screen.getByRole('button', { name: 'Done' })).toBeTruthy();
    fireEvent.click(widgetList().getByRole('button', { name: 'Change Tile a' }));
    expect(screen.getByRole('heading', { name: 'Change Tile a' })).toBeTruthy();
    expect((form().getByLabelText(/^Measurement/) as HTMLInputElement).value).toBe('temperature');
    fireEvent.change(form().getByLabelText(/^Measurement/), { target: { value: 'humidity' } });
    fireEvent.change(form().getByLabelText(/^Title/), { target: { value: '' } });
    fireEvent.click(form().getByRole('button', { name: 'Apply' }));
    fireEvent.click(widgetList().getByRole('button', { name: 'Remove Tile b' }));
    expect(screen.getByRole('status').textContent).toBe('Tile b removed.');

    fireEvent.change(screen.getByLabelText(/^Name/), { target: { value: '  ' } });
    save();
    expect(screen.getByText('Give the dashboard a name.')).toBeTruthy();
    expect(saved).toEqual([]);
    fireEvent.change(screen.getByLabelText(/^Name/), { target: { value: ' Cold rooms ' } });
    fireEvent.change(screen.getByLabelText(/^Who sees it/), { target: { value: 'operator' } });
    save();
    expect(saved).toEqual([
      {
        name: 'Cold rooms',
        shared_role: 'operator',
        dirty: true,
        widgets: [{ id: 'a', kind: 'latest', title: null, x: 0, y: 0, w: 3, h: 2, options: { device: EUI, member: 'humidity' } }],
      },
    ]);
    fireEvent.click(screen.getByRole('button', { name: 'Discard changes' }));
    expect(cancelled).toEqual([true]);
  });

  it('offers no sharing in a person’s own account', () => {
    renderEditor([tile('a', 0, 0)], false);
    expect(screen.queryByLabelText(/^Who sees it/)).toBeNull();
  });
});
