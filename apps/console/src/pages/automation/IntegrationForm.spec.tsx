import type { IntegrationWire } from '@dts/domain';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, configure, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { type Call, FakeService, fail, ok } from './test-service';

/*
 * The integration form in jsdom against a small service answering the integration routes with real
 * envelopes: a webhook sends no MQTT member, MQTT's own members, the secret handed on once, the
 * password kept, replaced or removed, and errors at their field.
 */

const stored = (over: Partial<IntegrationWire>): IntegrationWire => ({
  uid: 3,
  name: 'Broker',
  kind: 'mqtt',
  url: 'mqtt://broker.example.org',
  events: ['uplink'],
  devices: null,
  enabled: true,
  disabled_reason: null,
  disabled_unix: null,
  failing_since_unix: null,
  last_error: null,
  last_success_unix: null,
  pending: 0,
  topic: 'dts/{devEUI}/{event}',
  qos: 1,
  username: 'dts',
  has_password: true,
  created_unix: 1,
  updated_unix: 1,
  ...over,
});

let respond: (call: Call) => Response | undefined;
let service: FakeService;
globalThis.fetch = ((input: RequestInfo | URL, init?: RequestInit) => service.fetch(input, init)) as typeof fetch;
let IntegrationForm: typeof import('./IntegrationForm').IntegrationForm;
beforeAll(async () => {
  ({ IntegrationForm } = await import('./IntegrationForm'));
});
beforeEach(() => {
  respond = (c) => {
    if (c.path === '/user/integration' && c.method === 'POST')
      return ok({ ...stored({ ...(c.body as Partial<IntegrationWire>), has_password: false }), secret: c.body!.kind === 'webhook' ? 'whsec_abc' : null }, 201);
    if (c.method === 'PATCH') return ok(stored(c.body as Partial<IntegrationWire>));
    return undefined;
  };
  service = new FakeService((c) => respond(c));
});
afterEach(cleanup);
configure({ asyncUtilTimeout: 5_000 });

function renderForm(integration?: IntegrationWire) {
  const done = jest.fn();
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <IntegrationForm integration={integration} onDone={done} onCancel={() => undefined} />
    </QueryClientProvider>,
  );
  return done;
}

const type = (label: string | RegExp, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });

describe('IntegrationForm', () => {
  it('creates a webhook with no MQTT member and hands on the secret of the answer', async () => {
    const done = renderForm();
    expect(screen.queryByLabelText('Topic')).toBeNull();
    type('Name', 'Receiver');
    type('Endpoint URL', ' https://example.org/hook ');
    fireEvent.click(screen.getByLabelText(/^Alerts/));
    type('Folder', 'Barn');
    fireEvent.click(screen.getByRole('button', { name: 'Create integration' }));
    await waitFor(() => expect(done).toHaveBeenCalled());
    expect(done.mock.calls[0][0]).toMatchObject({ secret: 'whsec_abc' });
    expect(service.writes()).toEqual([
      {
        method: 'POST',
        path: '/user/integration',
        body: {
          name: 'Receiver',
          kind: 'webhook',
          url: 'https://example.org/hook',
          events: ['uplink', 'alert'],
          enabled: true,
          devices: { euis: null, folder: 'Barn', tags: null },
        },
      },
    ]);
  });

  it('shows MQTT’s fields for a broker and sends them, the topic left to the service’s default when empty', async () => {
    renderForm();
    fireEvent.change(screen.getByLabelText('Kind'), { target: { value: 'mqtt' } });
    type('Name', 'Broker');
    type('Broker URL', 'mqtts://broker.example.org:8883');
    fireEvent.change(screen.getByLabelText('QoS'), { target: { value: '0' } });
    type('Username (optional)', 'dts');
    type('Password (optional)', 'secret');
    fireEvent.click(screen.getByRole('button', { name: 'Create integration' }));
    await waitFor(() => expect(service.writes()).toHaveLength(1));
    expect(service.writes()[0]!.body).toEqual({
      name: 'Broker',
      kind: 'mqtt',
      url: 'mqtts://broker.example.org:8883',
      events: ['uplink'],
      enabled: true,
      devices: null,
      qos: 0,
      username: 'dts',
      password: 'secret',
    });
  });

  it('asks for an event before sending, and shows the service’s error at the URL', async () => {
    respond = () => fail('VALIDATION_FAILED', 'url resolves to a private address', 'url');
    renderForm();
    type('Name', 'Inside');
    type('Endpoint URL', 'http://10.0.0.1/hook');
    fireEvent.click(screen.getByLabelText(/^Uplinks/));
    fireEvent.click(screen.getByRole('button', { name: 'Create integration' }));
    expect(await screen.findByText('Choose at least one kind of event.')).toBeTruthy();
    expect(service.writes()).toEqual([]);
    fireEvent.click(screen.getByLabelText(/^Commands/));
    fireEvent.click(screen.getByRole('button', { name: 'Create integration' }));
    await waitFor(() => expect(screen.getByLabelText('Endpoint URL').getAttribute('aria-invalid')).toBe('true'));
    expect(screen.getAllByText(/url resolves to a private address/).length).toBeGreaterThan(0);
  });

  it('edits a broker without its kind: the stored password kept unless replaced or removed', async () => {
    const done = renderForm(stored({}));
    expect((screen.getByLabelText('Kind') as HTMLSelectElement).disabled).toBe(true);
    expect(screen.getByText('A password is stored. Leave this empty to keep it.')).toBeTruthy();
    type('Topic', '');
    fireEvent.click(screen.getByRole('button', { name: 'Save integration' }));
    await waitFor(() => expect(done).toHaveBeenCalledTimes(1));
    expect(service.writes()[0]).toEqual({
      method: 'PATCH',
      path: '/user/integration/3',
      body: { name: 'Broker', url: 'mqtt://broker.example.org', events: ['uplink'], enabled: true, devices: null, topic: null, qos: 1, username: 'dts' },
    });
    fireEvent.click(screen.getByLabelText('Remove the stored password'));
    fireEvent.click(screen.getByRole('button', { name: 'Save integration' }));
    await waitFor(() => expect(done).toHaveBeenCalledTimes(2));
    expect(service.writes()[1]!.body).toMatchObject({ password: null });
  });
});
