import type { RuleWire } from '@dts/domain';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, configure, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { type Call, FakeService, fail, ok } from './test-service';

/*
 * The rule form in jsdom, driven as a person does, against a small service answering the rule and
 * fence routes with real envelopes: what each kind sends, what the form refuses before sending,
 * and the service's field errors shown at their field.
 */

const FENCES = [
  { uid: 7, name: 'Farm', geometry: { type: 'Polygon', coordinates: [] }, created_unix: 1 },
  { uid: 8, name: 'Pasture', geometry: { type: 'Polygon', coordinates: [] }, created_unix: 1 },
];

const saved = (body: Record<string, unknown>): RuleWire =>
  ({
    uid: 1,
    enabled: true,
    email: false,
    devices: null,
    fence: null,
    on: null,
    minutes: null,
    member: null,
    above: null,
    below: null,
    hysteresis: null,
    measure: null,
    created_unix: 1,
    updated_unix: 1,
    ...body,
  }) as RuleWire;

let respond: (call: Call) => Response | undefined;
let service: FakeService;
globalThis.fetch = ((input: RequestInfo | URL, init?: RequestInit) => service.fetch(input, init)) as typeof fetch;
let RuleForm: typeof import('./RuleForm').RuleForm;
beforeAll(async () => {
  ({ RuleForm } = await import('./RuleForm'));
});
beforeEach(() => {
  respond = (c) => {
    if (c.path === '/user/fence') return ok(FENCES);
    if (c.path === '/user/rule' && c.method === 'POST') return ok(saved(c.body!), 201);
    if (c.path.startsWith('/user/rule/') && c.method === 'PATCH') return ok(saved(c.body!));
    return undefined;
  };
  service = new FakeService((c) => respond(c));
});
afterEach(cleanup);
configure({ asyncUtilTimeout: 5_000 });

function renderForm(rule?: RuleWire) {
  const done = jest.fn();
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <RuleForm rule={rule} onDone={done} onCancel={() => undefined} />
    </QueryClientProvider>,
  );
  return done;
}

const type = (label: string | RegExp, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });
const choose = (label: string | RegExp, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });
const submit = (name = 'Create rule') => fireEvent.click(screen.getByRole('button', { name }));

describe('RuleForm', () => {
  it('sends a threshold rule below a limit with only its kind’s members, the others absent, and the devices it covers', async () => {
    const done = renderForm();
    type('Name', ' Too cold ');
    type('Measurement', 'temperature');
    choose('Alert when it is', 'below');
    type('Limit', '2,5');
    type('Device EUIs', '70b3d57ed0000001, 70B3D57ED0000002 70b3d57ed0000001');
    type('Tags', 'barn, ');
    submit();
    await waitFor(() => expect(done).toHaveBeenCalled());
    expect(service.writes()).toEqual([
      {
        method: 'POST',
        path: '/user/rule',
        body: {
          name: 'Too cold',
          kind: 'threshold',
          enabled: true,
          email: false,
          devices: { euis: ['70B3D57ED0000001', '70B3D57ED0000002'], folder: null, tags: ['barn'] },
          member: 'temperature',
          above: null,
          below: 2.5,
          hysteresis: null,
        },
      },
    ]);
  });

  it('shows each kind’s own fields, keeps what was typed across kinds, and sends fence, offline and battery rules', async () => {
    renderForm();
    type('Name', 'Any');
    type('Measurement', 'RSSI');
    choose('Kind', 'fence');
    expect(screen.queryByLabelText('Measurement')).toBeNull();
    await screen.findByRole('option', { name: 'Pasture' });
    choose('Fence', '8');
    choose('When the device', 'enter');
    submit();
    await waitFor(() => expect(service.writes()).toHaveLength(1));
    expect(service.writes()[0]!.body).toEqual({ name: 'Any', kind: 'fence', enabled: true, email: false, devices: null, fence: 8, on: 'enter' });

    choose('Kind', 'offline');
    type('Minutes without an uplink', '90');
    fireEvent.click(screen.getByLabelText(/Also e-mail/));
    submit();
    await waitFor(() => expect(service.writes()).toHaveLength(2));
    expect(service.writes()[1]!.body).toEqual({ name: 'Any', kind: 'offline', enabled: true, email: true, devices: null, minutes: 90 });

    choose('Kind', 'battery');
    expect(screen.getByLabelText('Alert below (%)')).toBeTruthy();
    choose('Measure', 'voltage');
    type('Alert below (V)', '3.3');
    type('Hysteresis (optional)', '0.1');
    submit();
    await waitFor(() => expect(service.writes()).toHaveLength(3));
    expect(service.writes()[2]!.body).toMatchObject({ kind: 'battery', measure: 'voltage', below: 3.3, hysteresis: 0.1 });

    // Back to threshold: what was typed there is still there.
    choose('Kind', 'threshold');
    expect((screen.getByLabelText('Measurement') as HTMLInputElement).value).toBe('RSSI');
  });

  it('refuses what is not a number at its field and sends nothing', async () => {
    renderForm();
    type('Name', 'Hot');
    type('Measurement', 'temperature');
    type('Limit', 'warm');
    submit();
    expect(await screen.findByText('Enter a number, such as 25 or 3.6.')).toBeTruthy();
    expect(screen.getByLabelText('Limit').getAttribute('aria-invalid')).toBe('true');
    choose('Kind', 'offline');
    type('Minutes without an uplink', '1.5');
    submit();
    expect(await screen.findByText('Enter whole minutes.')).toBeTruthy();
    choose('Kind', 'fence');
    submit();
    expect(await screen.findByText('Choose a fence.')).toBeTruthy();
    expect(service.writes()).toEqual([]);
  });

  it('shows the service’s errors at the field they name, the devices’ too', async () => {
    respond = (c) => {
      if (c.path === '/user/fence') return ok(FENCES);
      if (c.method === 'POST' && c.body?.minutes === 99999) return fail('VALIDATION_FAILED', 'minutes must not be greater than 43200', 'minutes');
      if (c.method === 'POST') return fail('NOT_FOUND', 'No such device.', 'devices.euis');
      return undefined;
    };
    renderForm();
    type('Name', 'Quiet');
    choose('Kind', 'offline');
    type('Minutes without an uplink', '99999');
    submit();
    expect(await screen.findAllByText('minutes must not be greater than 43200')).not.toHaveLength(0);
    expect(screen.getByLabelText('Minutes without an uplink').getAttribute('aria-invalid')).toBe('true');
    type('Minutes without an uplink', '5');
    type('Device EUIs', 'FFFFFFFFFFFFFFFF');
    submit();
    await waitFor(() => expect(screen.getByLabelText('Device EUIs').getAttribute('aria-invalid')).toBe('true'));
  });

  it('edits a rule without its kind, and a threshold turned from above to below drops the other limit', async () => {
    const done = renderForm(saved({ uid: 4, name: 'Hot', kind: 'threshold', member: 'temperature', above: 30, hysteresis: 1 }));
    expect((screen.getByLabelText('Kind') as HTMLSelectElement).disabled).toBe(true);
    expect((screen.getByLabelText('Limit') as HTMLInputElement).value).toBe('30');
    choose('Alert when it is', 'below');
    type('Limit', '-5');
    type('Hysteresis (optional)', '');
    submit('Save rule');
    await waitFor(() => expect(done).toHaveBeenCalled());
    expect(service.writes()).toEqual([
      {
        method: 'PATCH',
        path: '/user/rule/4',
        body: { name: 'Hot', enabled: true, email: false, devices: null, member: 'temperature', above: null, below: -5, hysteresis: null },
      },
    ]);
  });
});
