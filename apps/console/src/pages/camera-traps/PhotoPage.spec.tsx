import {
  type AnnotationsRequest,
  type AnnotationWire,
  type ErrorCode,
  errorEnvelope,
  ERROR_STATUS,
  type ImageDetailWire,
  type ImageGalleryEntryWire,
  type ImageLabelWire,
  successEnvelope,
  type TaxonomyWire,
} from '@dts/domain';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';

/*
 * A camera-trap photo's page in jsdom: its annotation draft edited as a person does (add, move,
 * remove a box, label it from the account's species, save, discard, leave with changes) against a
 * small service answering the page's real routes with real envelopes: the network is the boundary.
 * Drawing and dragging boxes with the pointer needs a browser that lays out the photo: the
 * Chromium specs (apps/console/test) cover those; here boxes move with the keyboard.
 */

const EUI = '70B3D57ED0000001';
const HASH = 'a1'.repeat(16);
const NEXT = 'b2'.repeat(16);
const FOX: TaxonomyWire = { id: 'f1', class: 'mammalia', order: 'carnivora', family: 'canidae', genus: 'vulpes', species: 'vulpes vulpes' };
const DEER: AnnotationWire = { id: 1, bbox: [0.1, 0.1, 0.2, 0.2], score: 0.8, label: 'deer', taxonomy: null, source: 'MegaDetector (v5a.0.0)' };

const detail = (hash: string, annotations: AnnotationWire[], prediction: ImageDetailWire['meta']['prediction'] = null): ImageDetailWire => ({
  hash,
  meta: {
    uid: 7,
    camera_ref: 3,
    ts_photo_unix: 1_767_225_600,
    ts_tx_unix: 1_767_225_660,
    ts_sync_unix: 1_767_225_700,
    vendor_id: null,
    url: `http://localhost/files/image/${hash}?expires=1767229300&signature=abc`,
    longitude: 5.1,
    latitude: 52.1,
    image_details: JSON.stringify({ width: 1920, height: 1080, size: 204_800 }),
    annotations: JSON.stringify(annotations),
    prediction,
    status: annotations.length > 0 || prediction ? 5 : 4,
    deleted: 0,
    filename: `${hash.slice(0, 4)}.jpg`,
    hash,
    bin_hash: 'c3'.repeat(32),
  },
  images: { thumb: null },
});

const entry = (d: ImageDetailWire): ImageGalleryEntryWire => ({
  hash: d.hash,
  devEUI: EUI,
  ts_photo_unix: d.meta.ts_photo_unix,
  ts_tx_unix: d.meta.ts_tx_unix,
  ts_sync_unix: d.meta.ts_sync_unix,
  lat: d.meta.latitude,
  lon: d.meta.longitude,
  annotations: JSON.parse(d.meta.annotations) as AnnotationWire[],
  prediction: d.meta.prediction,
  status: d.meta.status,
  filename: d.meta.filename,
});

interface Call {
  method: string;
  path: string;
  body: unknown;
}

/** The photo routes as the service answers them: the annotate route stores and answers the photo as now stored. */
class PhotoService {
  photos = new Map([
    [HASH, detail(HASH, [DEER])],
    [NEXT, detail(NEXT, [])],
  ]);
  labels: ImageLabelWire[] = [
    { label: 'red fox', taxonomy: FOX, count: 4 },
    { label: 'deer', taxonomy: null, count: 2 },
  ];
  calls: Call[] = [];
  /** Set to have the next annotate refused as the service refuses a bad body. */
  refuse: { message: string; field: string } | null = null;

  readonly fetch = async (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
    const url = new URL(String(input));
    const method = init.method ?? 'GET';
    const body = typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
    this.calls.push({ method, path: url.pathname, body });
    if (url.pathname === '/user/image/labels' && method === 'GET') return ok(this.labels);
    if (url.pathname === '/user/image' && method === 'GET') return ok([...this.photos.values()].map(entry), { next_cursor: null });
    const match = /^\/user\/device\/image\/([0-9A-F]{16})\/([0-9a-f]+)(\/annotations)?$/.exec(url.pathname);
    const photo = match?.[1] === EUI ? this.photos.get(match[2]!) : undefined;
    if (!photo) return fail('NOT_FOUND', 'No such photo.');
    if (!match![3] && method === 'GET') return ok(photo);
    if (match![3] && method === 'POST') {
      if (this.refuse) return fail('VALIDATION_FAILED', this.refuse.message, this.refuse.field);
      const request = body as AnnotationsRequest;
      const stored = detail(
        photo.hash,
        request.annotations.map((a, i) => ({
          id: i + 1,
          bbox: a.bbox,
          score: a.score,
          label: a.label,
          taxonomy: a.taxonomy ?? null,
          source: a.source ?? null,
        })),
        request.prediction ? { ...request.prediction, taxonomy: request.prediction.taxonomy ?? null, source: request.prediction.source ?? null } : null,
      );
      this.photos.set(photo.hash, stored);
      return ok(stored);
    }
    return fail('ROUTE_NOT_FOUND', 'No such route.');
  };

  annotations(): Call[] {
    return this.calls.filter((c) => c.method === 'POST');
  }
}

const json = (status: number, envelope: unknown) => new Response(JSON.stringify(envelope), { status, headers: { 'Content-Type': 'application/json' } });
const ok = (data: unknown, meta: Record<string, unknown> = {}) => json(200, successEnvelope(data, { meta }));
const fail = (code: ErrorCode, message: string, field?: string) => json(ERROR_STATUS[code], errorEnvelope([{ code, message, ...(field ? { field } : {}) }]));

let service = new PhotoService();
// The console's client takes the fetch it finds when its module loads: the page is loaded after this.
globalThis.fetch = ((input: RequestInfo | URL, init?: RequestInit) => service.fetch(input, init)) as typeof fetch;
let PhotoPage: typeof import('./PhotoPage').PhotoPage;
beforeAll(async () => {
  ({ PhotoPage } = await import('./PhotoPage'));
});
beforeEach(() => {
  service = new PhotoService();
});
afterEach(cleanup);
// Two cores shared with other suites: an answer can take longer than the default second to show.
configure({ asyncUtilTimeout: 5_000 });

/** The page at its address, in a router of its own: `history` is where the person went. */
function renderPage() {
  const location = memoryLocation({ path: `/camera-traps/${EUI}/${HASH}`, record: true });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <Router hook={location.hook} searchHook={location.searchHook}>
        <PhotoPage eui={EUI} hash={HASH} />
      </Router>
    </QueryClientProvider>,
  );
  return location;
}

const panel = () => within(screen.getByRole('region', { name: 'Annotations' }));
const saveButton = () => panel().getByRole('button', { name: 'Save' }) as HTMLButtonElement;
const discardButton = () => panel().getByRole('button', { name: 'Discard changes' }) as HTMLButtonElement;
const state = () => panel().getByRole('status').getAttribute('data-annotation-state');
const boxes = () => screen.getByTestId('annotator-frame').querySelectorAll<HTMLElement>('[data-box-key]');
const box = (n: number) => screen.getByRole('button', { name: new RegExp(`^Box ${n}: `) });
const loaded = () => screen.findByRole('button', { name: 'Box 1: deer, 80 %, by MegaDetector (v5a.0.0)' });

describe('PhotoPage', () => {
  it('shows the stored boxes, saved: nothing to save or discard', async () => {
    renderPage();
    await loaded();
    expect(boxes()).toHaveLength(1);
    expect(saveButton().disabled).toBe(true);
    expect(discardButton().disabled).toBe(true);
    expect(state()).toBe('saved');
    expect(screen.getByText(/photo 1 of 2/)).toBeTruthy();
  });

  it('adds a box, refuses to save it unlabelled, labels it with a species of the account and saves it', async () => {
    renderPage();
    await loaded();
    fireEvent.click(panel().getByRole('button', { name: 'Add box' }));
    expect(boxes()).toHaveLength(2);
    expect(box(2).getAttribute('aria-label')).toBe('Box 2: no label yet, 100 %, by a person');
    expect(state()).toBe('unsaved');
    expect(saveButton().disabled).toBe(false);

    fireEvent.click(saveButton());
    expect(within(panel().getByRole('alert')).getByText('Box 2 has no label.')).toBeTruthy();
    expect(service.annotations()).toEqual([]);

    // The account's labels are offered as the person types; one of them brings its taxonomy.
    const label = panel().getByLabelText('Label of box 2');
    const offered = () => [...document.getElementById(label.getAttribute('list')!)!.querySelectorAll('option')].map((o) => o.value);
    await waitFor(() => expect(offered()).toEqual(['red fox', 'deer']));
    fireEvent.change(label, { target: { value: 'red fox' } });
    expect((panel().getByLabelText('Species') as HTMLInputElement).value).toBe('vulpes vulpes');

    fireEvent.click(saveButton());
    await waitFor(() => expect(state()).toBe('saved'));
    expect(panel().getByRole('status').textContent).toBe('Saved.');
    expect(panel().queryByRole('alert')).toBeNull();
    expect(saveButton().disabled).toBe(true);
    expect(service.annotations()).toHaveLength(1);
    expect(service.annotations()[0]).toMatchObject({
      path: `/user/device/image/${EUI}/${HASH}/annotations`,
      body: {
        annotations: [
          { bbox: DEER.bbox, score: 0.8, label: 'deer', taxonomy: null, source: DEER.source },
          // The middle third of the photo, as positions are kept: to a millionth.
          { bbox: [0.333333, 0.333333, 0.333333, 0.333333], score: 1, label: 'red fox', taxonomy: FOX, source: 'person' },
        ],
        prediction: null,
      },
    });
  });

  it('moves a box with the keyboard (it becomes a person’s), and discarding brings back what is stored', async () => {
    renderPage();
    const deer = await loaded();
    fireEvent.focus(deer);
    fireEvent.keyDown(deer, { key: 'ArrowRight' });
    fireEvent.keyDown(deer, { key: 'ArrowDown', shiftKey: true });
    expect(box(1).getAttribute('aria-label')).toBe('Box 1: deer, 80 %, by a person');
    expect(box(1).style.left).toBe('11%');
    expect(box(1).style.height).toBe('21%');
    expect(state()).toBe('unsaved');

    fireEvent.click(discardButton());
    expect(box(1).getAttribute('aria-label')).toBe('Box 1: deer, 80 %, by MegaDetector (v5a.0.0)');
    expect(box(1).style.left).toBe('10%');
    expect(state()).toBe('saved');
    expect(service.annotations()).toEqual([]);
  });

  it('removes a box (Delete on it, or its button) and saves the photo without it', async () => {
    renderPage();
    const deer = await loaded();
    fireEvent.click(panel().getByRole('button', { name: 'Add box' }));
    fireEvent.keyDown(box(2), { key: 'Delete' });
    expect(boxes()).toHaveLength(1);
    expect(state()).toBe('saved');

    fireEvent.focus(deer);
    fireEvent.click(panel().getByRole('button', { name: 'Remove box 1' }));
    expect(boxes()).toHaveLength(0);
    expect(panel().getByText(/^No boxes\./)).toBeTruthy();
    expect(state()).toBe('unsaved');
    fireEvent.click(saveButton());
    await waitFor(() => expect(state()).toBe('saved'));
    expect(service.annotations().map((c) => c.body)).toEqual([{ annotations: [], prediction: null }]);
  });

  it('keeps the changes when the service refuses them, and shows why', async () => {
    service.refuse = { message: 'must be at most 100 characters', field: 'annotations[0].label' };
    renderPage();
    const deer = await loaded();
    fireEvent.focus(deer);
    fireEvent.keyDown(deer, { key: 'ArrowLeft' });
    fireEvent.click(saveButton());
    expect((await panel().findByRole('alert')).textContent).toBe('annotations[0].label: must be at most 100 characters');
    expect(state()).toBe('unsaved');
    expect(box(1).style.left).toBe('9%');
  });

  it('asks before the tab closes with changes, and saves them before going to the next photo', async () => {
    const location = renderPage();
    const deer = await loaded();
    const unload = () => {
      const event = new Event('beforeunload', { cancelable: true });
      window.dispatchEvent(event);
      return event.defaultPrevented;
    };
    expect(unload()).toBe(false);

    fireEvent.click(panel().getByRole('button', { name: 'Add box' }));
    expect(unload()).toBe(true);
    // Unlabelled: going on would lose it, so the page stays and says why.
    fireEvent.click(screen.getByRole('link', { name: /Next/ }));
    expect(await panel().findByText('Box 2 has no label.')).toBeTruthy();
    expect(location.history).toEqual([`/camera-traps/${EUI}/${HASH}`]);

    fireEvent.change(panel().getByLabelText('Label of box 2'), { target: { value: 'badger' } });
    fireEvent.focus(deer);
    await act(async () => {
      fireEvent.keyDown(window, { key: 'ArrowRight' });
    });
    await waitFor(() => expect(location.history.at(-1)).toBe(`/camera-traps/${EUI}/${NEXT}`));
    expect(service.annotations()).toHaveLength(1);
    expect((service.annotations()[0]!.body as AnnotationsRequest).annotations.map((a) => a.label)).toEqual(['deer', 'badger']);
    expect(unload()).toBe(false);
  });
});
