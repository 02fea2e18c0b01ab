import {
  type CommandStatus,
  type CommandWire,
  type ErrorCode,
  errorEnvelope,
  ERROR_STATUS,
  isWaiting,
  successEnvelope,
  WAITING_COMMAND_STATUSES,
} from '@dts/domain';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';

/*
 * A device's commands tab in jsdom, driven as a person does, against a small service answering the
 * tab's real routes with real envelopes and pushing `command` events down the live feed (the
 * EventSource of GET /user/live): the network is the boundary. Sending through a real network
 * server and the statuses it reports stay with the Chromium and end-to-end specs.
 */

const EUI = '70B3D57ED0000001';

const command = (uid: number, status: CommandStatus): CommandWire => ({
  uid,
  time_stamp: new Date(Date.UTC(2026, 0, 1, 0, uid)).toISOString().replace('T', ' ').slice(0, 19),
  status,
  network: 'chirpstack',
  devEUI: EUI,
  confirmed: 0,
  port: 1,
  payload_base64: 'AQ==',
  payload_hex: '01',
  payload_ASCII: '\u0001',
  reason: null,
});

interface Call {
  method: string;
  path: string;
  query: Record<string, string>;
}

/** The command routes of one device as the service answers them, and its live feed. */
class CommandService {
  /** uid 1..105, oldest first; three have not left: 5 (page 2 of "every command"), 104 and 105. */
  commands = Array.from({ length: 105 }, (_, i) => command(i + 1, i + 1 === 5 || i + 1 === 105 ? 'Created' : i + 1 === 104 ? 'Scheduled' : 'Acknowledged'));
  calls: Call[] = [];
  /** A cancellation held until released (to see the page while it is on its way). */
  held: (() => void) | null = null;
  holdCancel = false;
  readonly feeds = new Set<ServiceEventSource>();

  readonly fetch = async (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
    const url = new URL(String(input));
    const method = init.method ?? 'GET';
    this.calls.push({ method, path: url.pathname, query: Object.fromEntries(url.searchParams) });
    const base = `/user/device/command/${EUI}`;
    if (url.pathname === `${base}/available` && method === 'GET') return ok([]);
    if (url.pathname === base && method === 'GET') {
      const statuses = url.searchParams.get('status')?.split(',');
      const before = Number(url.searchParams.get('before') ?? Infinity);
      const limit = Number(url.searchParams.get('limit') ?? 100);
      const rows = [...this.commands]
        .reverse()
        .filter((c) => c.uid < before && (!statuses || statuses.includes(c.status)))
        .slice(0, limit);
      return ok(rows);
    }
    if (url.pathname === base && method === 'DELETE') {
      const waiting = this.commands.filter((c) => isWaiting(c.status));
      for (const c of waiting) this.set(c.uid, 'Cancelled');
      return ok({ devEUI: EUI, cancelled: waiting.map((c) => c.uid), kept: [] });
    }
    const uid = Number(url.pathname.slice(base.length + 1));
    const found = this.commands.find((c) => c.uid === uid);
    if (url.pathname.startsWith(`${base}/`) && method === 'DELETE' && found) {
      if (!isWaiting(found.status)) return fail('COMMAND_NOT_CANCELLABLE', `Command ${uid} has left (${found.status}).`);
      if (this.holdCancel) await new Promise<void>((release) => (this.held = release));
      this.set(uid, 'Cancelled');
      return ok({ uid, status: 'Cancelled' });
    }
    return fail('ROUTE_NOT_FOUND', 'No such route.');
  };

  /** A command's status changes (the network delivered it, a person cancelled it): stored, and told on the live feed. */
  set(uid: number, status: CommandStatus): CommandWire {
    const changed = { ...this.commands.find((c) => c.uid === uid)!, status };
    this.commands = this.commands.map((c) => (c.uid === uid ? changed : c));
    for (const feed of this.feeds) feed.dispatchEvent(new MessageEvent('command', { data: JSON.stringify(changed) }));
    return changed;
  }

  reads(): Call[] {
    return this.calls.filter((c) => c.method === 'GET' && c.path === `/user/device/command/${EUI}`);
  }
}

let service = new CommandService();

/** The browser's EventSource over the service's feed (jsdom has none): opens at once, carries what the service tells. */
class ServiceEventSource extends EventTarget {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSED = 2;
  readyState = ServiceEventSource.CONNECTING;
  onopen: ((event: Event) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;
  constructor(readonly url: string) {
    super();
    service.feeds.add(this);
    queueMicrotask(() => {
      if (this.readyState === ServiceEventSource.CLOSED) return;
      this.readyState = ServiceEventSource.OPEN;
      this.onopen?.(new Event('open'));
    });
  }
  close() {
    this.readyState = ServiceEventSource.CLOSED;
    service.feeds.delete(this);
  }
}

const json = (status: number, envelope: unknown) => new Response(JSON.stringify(envelope), { status, headers: { 'Content-Type': 'application/json' } });
const ok = (data: unknown) => json(200, successEnvelope(data));
const fail = (code: ErrorCode, message: string) => json(ERROR_STATUS[code], errorEnvelope([{ code, message }]));

// The console's client takes the fetch it finds when its module loads: the tab is loaded after this.
globalThis.fetch = ((input: RequestInfo | URL, init?: RequestInit) => service.fetch(input, init)) as typeof fetch;
globalThis.EventSource = ServiceEventSource as unknown as typeof EventSource;
let CommandsTab: typeof import('./CommandsTab').CommandsTab;
let useLiveFeed: typeof import('../../api/live').useLiveFeed;
beforeAll(async () => {
  ({ CommandsTab } = await import('./CommandsTab'));
  ({ useLiveFeed } = await import('../../api/live'));
});
beforeEach(() => {
  service = new CommandService();
});
afterEach(cleanup);
// Two cores shared with other suites: an answer can take longer than the default second to show.
configure({ asyncUtilTimeout: 5_000 });

/**
 * The virtualised table lays out nothing in jsdom (every element is 0 px high): its scroller is
 * given a height, as a browser gives it, here tall enough that every loaded row is in view (the
 * person scrolled to the end).
 */
beforeAll(() => {
  Object.defineProperty(HTMLElement.prototype, 'clientHeight', {
    configurable: true,
    get(this: HTMLElement) {
      return this.classList.contains('table-scroll') ? 44 * 1000 : 0;
    },
  });
});
afterAll(() => {
  delete (HTMLElement.prototype as { clientHeight?: number }).clientHeight;
});

function Tab() {
  useLiveFeed(true);
  return <CommandsTab eui={EUI} />;
}

function renderTab() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <Tab />
    </QueryClientProvider>,
  );
}

const commandsCard = () => within(screen.getByRole('region', { name: 'Commands' }));
const statusOf = (uid: number) =>
  commandsCard()
    .queryAllByRole('row')
    .find((row) => row.querySelector('td')?.textContent === command(uid, 'Created').time_stamp)
    ?.querySelector('[data-command-status]')
    ?.getAttribute('data-command-status') ?? null;
const shownRows = () =>
  commandsCard()
    .queryAllByRole('row')
    .filter((row) => row.querySelector('[data-command-status]')).length;
const cancelAll = () => commandsCard().queryByRole('button', { name: /^Cancel all waiting/ });
const showWaiting = () => fireEvent.change(commandsCard().getByLabelText('Show'), { target: { value: 'waiting' } });

describe('CommandsTab', () => {
  it('pages the list: the next page is read from the last uid once the end is in view', async () => {
    renderTab();
    await waitFor(() => expect(shownRows()).toBe(105));
    const pages = service.reads().filter((c) => !c.query.status);
    expect(pages.map((c) => c.query)).toEqual([{ limit: '100' }, { limit: '100', before: '6' }]);
    expect(statusOf(105)).toBe('Created');
    expect(statusOf(5)).toBe('Created');
    expect(statusOf(1)).toBe('Acknowledged');
    // A command of page 2 that has not left can be cancelled like one of page 1.
    expect(commandsCard().getByRole('button', { name: 'Cancel command 5' })).toBeTruthy();
    expect(commandsCard().queryByRole('button', { name: 'Cancel command 103' })).toBeNull();
  });

  it('shows only what waits to leave, and drops a command from it live once it is delivered or cancelled', async () => {
    renderTab();
    expect((await screen.findByRole('button', { name: /^Cancel all waiting/ })).textContent).toBe('Cancel all waiting (3)');
    showWaiting();
    await waitFor(() => expect(shownRows()).toBe(3));
    expect(
      service
        .reads()
        .filter((c) => c.query.status)
        .map((c) => c.query),
    ).toEqual([{ limit: '100', status: WAITING_COMMAND_STATUSES.join(',') }]);
    const readsBefore = service.reads().length;

    act(() => void service.set(104, 'Sent'));
    await waitFor(() => expect(statusOf(104)).toBeNull());
    expect(shownRows()).toBe(2);
    expect(cancelAll()!.textContent).toBe('Cancel all waiting (2)');

    act(() => void service.set(5, 'Cancelled'));
    await waitFor(() => expect(statusOf(5)).toBeNull());
    expect(cancelAll()!.textContent).toBe('Cancel all waiting (1)');

    // Live, not read again; and in "every command" the same commands show their new status.
    expect(service.reads().length).toBe(readsBefore);
    fireEvent.change(commandsCard().getByLabelText('Show'), { target: { value: 'all' } });
    await waitFor(() => expect(statusOf(104)).toBe('Sent'));
    expect(statusOf(105)).toBe('Created');

    act(() => void service.set(105, 'Acknowledged'));
    await waitFor(() => expect(statusOf(105)).toBe('Acknowledged'));
    expect(cancelAll()).toBeNull();
    showWaiting();
    expect(await commandsCard().findByText('Nothing waiting to leave.')).toBeTruthy();
  });

  it('cancels one command: the buttons wait for the answer, then the command shows Cancelled without its button', async () => {
    service.holdCancel = true;
    renderTab();
    await waitFor(() => expect(statusOf(105)).toBe('Created'));
    fireEvent.click(commandsCard().getByRole('button', { name: 'Cancel command 105' }));
    await waitFor(() => expect(service.held).not.toBeNull());
    expect((commandsCard().getByRole('button', { name: 'Cancel command 105' }) as HTMLButtonElement).disabled).toBe(true);
    expect((commandsCard().getByRole('button', { name: 'Cancel command 104' }) as HTMLButtonElement).disabled).toBe(true);

    act(() => service.held!());
    await waitFor(() => expect(statusOf(105)).toBe('Cancelled'));
    expect(commandsCard().queryByRole('button', { name: 'Cancel command 105' })).toBeNull();
    expect((commandsCard().getByRole('button', { name: 'Cancel command 104' }) as HTMLButtonElement).disabled).toBe(false);
    await waitFor(() => expect(cancelAll()!.textContent).toBe('Cancel all waiting (2)'));
    expect(service.calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual([`/user/device/command/${EUI}/105`]);
  });

  it('shows the service’s refusal of a cancellation', async () => {
    renderTab();
    await waitFor(() => expect(statusOf(105)).toBe('Created'));
    // Delivered meanwhile, the live event not here yet: the service refuses.
    service.commands = service.commands.map((c) => (c.uid === 105 ? { ...c, status: 'Sent' } : c));
    fireEvent.click(commandsCard().getByRole('button', { name: 'Cancel command 105' }));
    expect((await commandsCard().findByRole('alert')).textContent).toBe('Command 105 has left (Sent).');
  });

  it('cancels every waiting command at once', async () => {
    renderTab();
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel all waiting (3)' }));
    await waitFor(() => expect(cancelAll()).toBeNull());
    expect(service.calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual([`/user/device/command/${EUI}`]);
    expect(statusOf(105)).toBe('Cancelled');
    expect(statusOf(5)).toBe('Cancelled');
  });
});
