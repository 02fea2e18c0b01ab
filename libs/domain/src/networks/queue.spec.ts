import { CHIRPSTACK_QUEUE } from './chirpstack/queue';
import type { NetworkCall, QueueRemoval } from './network';
import { TTS_QUEUE } from './the-things-stack/queue';

const target = { baseUrl: 'https://ns.example.org/', applicationId: 'farm', webhookId: 'dts' };
const EUI = '70B3D57ED0001234';

/** Drives a conversation: each call is answered by `answer` (a thrown Error is thrown into it). */
function run(conversation: Generator<NetworkCall, QueueRemoval, unknown>, answer: (call: NetworkCall, n: number) => unknown) {
  const calls: NetworkCall[] = [];
  let step = conversation.next();
  while (!step.done) {
    calls.push(step.value);
    let reply: unknown;
    let failure: unknown = null;
    try {
      reply = answer(step.value, calls.length);
    } catch (error) {
      failure = error;
    }
    step = failure === null ? conversation.next(reply) : conversation.throw(failure);
  }
  return { calls, outcome: step.value };
}

const item = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  devEui: EUI.toLowerCase(),
  confirmed: false,
  fPort: 2,
  data: 'AQ==',
  isPending: false,
  ...extra,
});

describe('ChirpStack: taking downlinks out of the device queue', () => {
  const url = 'https://ns.example.org/api/devices/70b3d57ed0001234/queue';

  it('lists, flushes, and enqueues the rest again in order, keeping an application-encrypted item’s frame counter and expiry', () => {
    const queue = [item('a'), item('b'), item('c', { isEncrypted: true, fCntDown: 17, expiresAt: '2026-05-02T00:00:00Z' })];
    let next = 0;
    const { calls, outcome } = run(CHIRPSTACK_QUEUE.remove(target, EUI, ['b', 'x']), (call) =>
      call.method === 'GET' ? { totalCount: 3, result: queue } : call.method === 'POST' ? { id: `new-${++next}` } : {},
    );
    expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual([`GET ${url}`, `DELETE ${url}`, `POST ${url}`, `POST ${url}`]);
    expect(calls[3]!.body).toEqual({
      queueItem: { devEui: '70b3d57ed0001234', confirmed: false, fPort: 2, data: 'AQ==', isEncrypted: true, fCntDown: 17, expiresAt: '2026-05-02T00:00:00Z' },
    });
    expect(outcome).toEqual({
      removed: ['b'],
      gone: ['x'],
      refused: [],
      renamed: [
        { from: 'a', to: 'new-1' },
        { from: 'c', to: 'new-2' },
      ],
      lost: [],
    });
  });

  it('flushes nothing while a downlink awaits its acknowledgement', () => {
    const { calls, outcome } = run(CHIRPSTACK_QUEUE.remove(target, EUI, ['a', 'b']), () => ({ result: [item('a', { isPending: true }), item('b')] }));
    expect(calls.map((c) => c.method)).toEqual(['GET']);
    expect(outcome.removed).toEqual([]);
    expect(outcome.refused.map((r) => r.id)).toEqual(['a', 'b']);
  });

  it('reports what it could not put back after the flush as lost, with why', () => {
    const { outcome } = run(CHIRPSTACK_QUEUE.remove(target, EUI, ['a']), (call, n) => {
      if (call.method === 'GET') return { result: [item('a'), item('b'), item('c')] };
      if (call.method === 'POST' && n === 4) throw new Error('the network answered 503');
      return call.method === 'POST' ? { id: 'b2' } : {};
    });
    expect(outcome.removed).toEqual(['a']);
    expect(outcome.renamed).toEqual([{ from: 'b', to: 'b2' }]);
    expect(outcome.lost).toEqual([{ id: 'c', reason: expect.stringContaining('the network answered 503') }]);
  });

  it('calls nothing more when none of the asked ones is queued', () => {
    const { calls, outcome } = run(CHIRPSTACK_QUEUE.remove(target, EUI, ['z']), () => ({ totalCount: 0 }));
    expect(calls).toHaveLength(1);
    expect(outcome.gone).toEqual(['z']);
  });
});

describe('The Things Stack: taking downlinks out of the queue', () => {
  const device = 'https://ns.example.org/api/v3/as/applications/farm/devices/eui-70b3d57ed0001234';

  it('lists and replaces the queue without ours, dropping what the network assigned', () => {
    const ours = { f_port: 3, frm_payload: 'qg==', priority: 'NORMAL', correlation_ids: ['dts:command:7'], session_key_id: 'k', f_cnt: 3 };
    const other = {
      f_port: 4,
      frm_payload: 'uw==',
      decoded_payload: { x: 1 },
      confirmed: true,
      correlation_ids: ['dts:command:8'],
      session_key_id: 'k',
      f_cnt: 4,
    };
    const { calls, outcome } = run(TTS_QUEUE.remove(target, EUI, ['dts:command:7', 'dts:command:9']), (call) =>
      call.method === 'GET' ? { downlinks: [ours, other] } : {},
    );
    expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual([`GET ${device}/down`, `POST ${device}/down/replace`]);
    expect(calls[1]!.body).toEqual({ downlinks: [{ f_port: 4, frm_payload: 'uw==', confirmed: true, correlation_ids: ['dts:command:8'] }] });
    expect(outcome).toMatchObject({ removed: ['dts:command:7'], gone: ['dts:command:9'] });
  });

  it('replaces nothing when the queue holds none of ours', () => {
    const { calls, outcome } = run(TTS_QUEUE.remove(target, EUI, ['dts:command:7']), () => ({}));
    expect(calls).toHaveLength(1);
    expect(outcome.gone).toEqual(['dts:command:7']);
  });
});
