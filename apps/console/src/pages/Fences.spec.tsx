import { type ErrorCode, errorEnvelope, ERROR_STATUS, type FenceDeviceWire, type FenceWire, type GeoJsonPolygon, successEnvelope } from '@dts/domain';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';

/*
 * The fences page in jsdom, its state driven as a person does (the list, the form, save, cancel,
 * delete) against a small service answering the page's real routes with real envelopes: the
 * network is the boundary. Leaflet starts on jsdom's element and follows the page's mode, but
 * drawing a shape and dragging its corners need a browser that lays out: the Chromium specs in
 * apps/console/test cover those (here a shape comes the keyboard's way, as GeoJSON text).
 */

interface Call {
  method: string;
  path: string;
  body: unknown;
}

const square = (lon: number, lat: number): GeoJsonPolygon => ({
  type: 'Polygon',
  coordinates: [
    [
      [lon, lat],
      [lon + 0.01, lat],
      [lon + 0.01, lat + 0.01],
      [lon, lat + 0.01],
      [lon, lat],
    ],
  ],
});

/** The fence routes as the service answers them (201 on create, field errors as VALIDATION_FAILED). */
class FenceService {
  fences: FenceWire[] = [
    { uid: 1, name: 'Farm', geometry: square(5, 52), created_unix: 1_767_225_600 },
    { uid: 2, name: 'Pasture', geometry: square(6, 52), created_unix: 1_767_312_000 },
  ];
  devices: Record<number, FenceDeviceWire[]> = {
    1: [{ devEUI: '70B3D57ED0000001', label: 'Cow 1', lat: 52.005, lon: 5.005, position: 'reported' }],
    2: [],
  };
  calls: Call[] = [];
  /** Set to make the list route fail as a broken service does. */
  listFails = false;
  private next = 3;

  readonly fetch = async (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
    const url = new URL(String(input));
    const method = init.method ?? 'GET';
    const body = typeof init.body === 'string' ? (JSON.parse(init.body) as Record<string, unknown>) : undefined;
    this.calls.push({ method, path: url.pathname, body });
    if (url.pathname === '/ui/config' && method === 'GET') {
      return ok({ map: { tile_url: 'http://localhost/tiles/{z}/{x}/{y}.png', attribution: 'Tiles', max_zoom: 19 }, online_threshold_s: 3600, version: 'test' });
    }
    const [, , , uidText, sub] = url.pathname.split('/');
    const uid = Number(uidText);
    if (url.pathname === '/user/fence' && method === 'GET') {
      return this.listFails ? fail('INTERNAL', 'The service failed.') : ok(this.fences);
    }
    if (url.pathname === '/user/fence' && method === 'POST') {
      const name = String(body?.name ?? '');
      if (!name) return fail('VALIDATION_FAILED', 'must not be empty', 'name');
      const fence = { uid: this.next++, name, geometry: body!.geometry as GeoJsonPolygon, created_unix: 1_767_398_400 };
      this.fences = [...this.fences, fence];
      this.devices[fence.uid] = [];
      return ok(fence, 201);
    }
    const fence = this.fences.find((f) => f.uid === uid);
    if (!url.pathname.startsWith('/user/fence/') || !fence) return fail('NOT_FOUND', 'No such fence.');
    if (sub === 'devices' && method === 'GET') return ok(this.devices[uid] ?? []);
    if (method === 'PATCH') {
      const changed = { ...fence, ...(body as Partial<FenceWire>) };
      this.fences = this.fences.map((f) => (f.uid === uid ? changed : f));
      return ok(changed);
    }
    if (method === 'DELETE') {
      this.fences = this.fences.filter((f) => f.uid !== uid);
      return ok({ uid, deleted: true });
    }
    return fail('ROUTE_NOT_FOUND', 'No such route.');
  };

  writes(): Call[] {
    return this.calls.filter((c) => c.method !== 'GET');
  }
}

const json = (status: number, envelope: unknown) => new Response(JSON.stringify(envelope), { status, headers: { 'Content-Type': 'application/json' } });
const ok = (data: unknown, status = 200) => json(status, successEnvelope(data));
const fail = (code: ErrorCode, message: string, field?: string) => json(ERROR_STATUS[code], errorEnvelope([{ code, message, ...(field ? { field } : {}) }]));

let service = new FenceService();
// The console's client takes the fetch it finds when its module loads: the page is loaded after this.
globalThis.fetch = ((input: RequestInfo | URL, init?: RequestInit) => service.fetch(input, init)) as typeof fetch;
let FencesPage: typeof import('./Fences').FencesPage;
beforeAll(async () => {
  // Leaflet-Geoman extends the global `L` that Leaflet sets when it loads: Leaflet first, as in the console's bundle.
  await import('leaflet');
  ({ FencesPage } = await import('./Fences'));
});
beforeEach(() => {
  service = new FenceService();
});
afterEach(cleanup);
// Two cores shared with other suites: an answer can take longer than the default second to show.
configure({ asyncUtilTimeout: 5_000 });

function renderPage() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <FencesPage />
    </QueryClientProvider>,
  );
}

const fenceList = () => within(screen.getByRole('region', { name: 'Your fences' }));
const fenceButton = (name: string) => fenceList().getByRole('button', { name });
const form = () => screen.getByRole('region', { name: /^(New fence|Edit )/ });
const geoJsonField = () => within(form()).getByLabelText('Shape (GeoJSON Polygon)');

describe('FencesPage', () => {
  it('selects the first fence, shows the devices inside it, and follows a selection in the list', async () => {
    renderPage();
    expect(await screen.findByRole('link', { name: 'Cow 1' })).toHaveProperty('href', 'http://localhost/devices/70B3D57ED0000001');
    expect(fenceButton('Farm').getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByRole('region', { name: 'Devices inside Farm' })).toBeTruthy();

    fireEvent.click(fenceButton('Pasture'));
    expect(fenceButton('Pasture').getAttribute('aria-pressed')).toBe('true');
    expect(fenceButton('Farm').getAttribute('aria-pressed')).toBe('false');
    const inside = await screen.findByRole('region', { name: 'Devices inside Pasture' });
    expect(await within(inside).findByText('No device is inside.')).toBeTruthy();
    expect(service.calls.map((c) => c.path)).toContain('/user/fence/2/devices');
  });

  it('makes a new fence: nothing is sent without a shape, the service’s field error shows, then it is saved and selected', async () => {
    renderPage();
    await screen.findByRole('link', { name: 'Cow 1' });
    fireEvent.click(screen.getByRole('button', { name: 'New fence' }));

    // Drawing: the list is frozen, the devices of the selected fence are not shown.
    expect(screen.getByText(/Click on the map to place the corners/)).toBeTruthy();
    expect((fenceButton('Farm') as HTMLButtonElement).disabled).toBe(true);
    expect(fenceList().queryByRole('button', { name: 'Edit Farm' })).toBeNull();
    expect(screen.queryByRole('region', { name: /Devices inside/ })).toBeNull();

    fireEvent.click(within(form()).getByRole('button', { name: 'Save fence' }));
    expect(within(form()).getByText('Draw the fence on the map, or paste its GeoJSON.')).toBeTruthy();
    expect(geoJsonField().getAttribute('aria-invalid')).toBe('true');
    expect(service.writes()).toEqual([]);

    fireEvent.change(geoJsonField(), { target: { value: '{"type":"Polygon"' } });
    fireEvent.click(within(form()).getByRole('button', { name: 'Save fence' }));
    expect(within(form()).getByText('This is not JSON.')).toBeTruthy();
    expect(service.writes()).toEqual([]);

    const shape = square(7, 53);
    fireEvent.change(geoJsonField(), { target: { value: JSON.stringify(shape) } });
    // A shape pasted ends drawing: it is counted, and can be drawn again instead.
    expect(within(form()).getByText(/^4 corners\./)).toBeTruthy();
    expect(screen.queryByText(/Click on the map to place the corners/)).toBeNull();
    expect(within(form()).getByRole('button', { name: 'Draw again' })).toBeTruthy();

    fireEvent.click(within(form()).getByRole('button', { name: 'Save fence' }));
    expect(await within(form()).findByText('must not be empty')).toBeTruthy();
    expect(within(form()).getByRole('alert').textContent).toBe('name: must not be empty');

    fireEvent.change(within(form()).getByLabelText(/^Name/), { target: { value: '  Orchard ' } });
    fireEvent.click(within(form()).getByRole('button', { name: 'Save fence' }));
    expect((await screen.findByText('Fence Orchard saved.')).getAttribute('role')).toBe('status');
    expect(service.writes().at(-1)).toEqual({ method: 'POST', path: '/user/fence', body: { name: 'Orchard', geometry: shape } });
    expect(screen.queryByRole('region', { name: 'New fence' })).toBeNull();
    expect((await screen.findByRole('button', { name: 'Orchard' })).getAttribute('aria-pressed')).toBe('true');
    expect(await screen.findByRole('region', { name: 'Devices inside Orchard' })).toBeTruthy();
  });

  it('edits a fence: the form holds its name and shape; Cancel drops the change, Save sends it', async () => {
    renderPage();
    await screen.findByRole('link', { name: 'Cow 1' });
    fireEvent.click(fenceList().getByRole('button', { name: 'Edit Pasture' }));
    expect(screen.getByRole('heading', { name: 'Edit Pasture' })).toBeTruthy();
    expect(screen.getByText(/Drag a corner to move it/)).toBeTruthy();
    expect((within(form()).getByLabelText(/^Name/) as HTMLInputElement).value).toBe('Pasture');
    expect(JSON.parse((geoJsonField() as HTMLTextAreaElement).value)).toEqual(square(6, 52));
    expect(within(form()).queryByRole('button', { name: 'Draw again' })).toBeNull();

    fireEvent.change(within(form()).getByLabelText(/^Name/), { target: { value: 'Meadow' } });
    fireEvent.click(within(form()).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('region', { name: /^Edit / })).toBeNull();
    expect(fenceButton('Pasture').getAttribute('aria-pressed')).toBe('true');
    expect(service.writes()).toEqual([]);

    fireEvent.click(fenceList().getByRole('button', { name: 'Edit Pasture' }));
    const name = within(form()).getByLabelText(/^Name/) as HTMLInputElement;
    expect(name.value).toBe('Pasture');
    fireEvent.change(name, { target: { value: 'Meadow' } });
    fireEvent.click(within(form()).getByRole('button', { name: 'Save fence' }));
    expect((await screen.findByText('Fence Meadow saved.')).getAttribute('role')).toBe('status');
    expect(service.writes()).toEqual([{ method: 'PATCH', path: '/user/fence/2', body: { name: 'Meadow', geometry: square(6, 52) } }]);
    expect((await screen.findByRole('button', { name: 'Meadow' })).getAttribute('aria-pressed')).toBe('true');
  });

  it('deletes the selected fence after asking, and selects the first one left', async () => {
    renderPage();
    await screen.findByRole('link', { name: 'Cow 1' });
    const farm = fenceList().getByRole('button', { name: 'Farm' }).closest('li')!;
    fireEvent.click(within(farm).getByRole('button', { name: 'Delete' }));
    expect(service.writes()).toEqual([]);
    fireEvent.click(within(farm).getByRole('button', { name: 'Yes, delete' }));
    expect((await screen.findByText('Fence Farm deleted.')).getAttribute('role')).toBe('status');
    expect(service.writes()).toEqual([{ method: 'DELETE', path: '/user/fence/1', body: undefined }]);
    await waitFor(() => expect(fenceList().queryByRole('button', { name: 'Farm' })).toBeNull());
    expect(fenceButton('Pasture').getAttribute('aria-pressed')).toBe('true');
    expect(await screen.findByRole('region', { name: 'Devices inside Pasture' })).toBeTruthy();
  });

  it('says so when the fences cannot be read', async () => {
    service.listFails = true;
    renderPage();
    expect((await screen.findByRole('alert')).textContent).toBe('The service failed.');
    expect(fenceList().queryAllByRole('listitem')).toEqual([]);
  });
});
