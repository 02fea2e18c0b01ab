import { bytesToBase64 } from '../payload';
import { CHIRPSTACK } from './chirpstack';
import { DeliveryError, type Downlink, type DownlinkCall, type Network, PermanentDownlinkError } from './network';
import { NETWORK_ADAPTERS } from '../wire/network-config';
import { ACCOUNT_NETWORK_KINDS, INGEST_NETWORKS, ingestHandlerName, ingestRouteOf, networkByKind, NETWORKS } from './registry';
import { REST } from './rest';
import { SIMULATED } from './simulated';
import { THE_THINGS_STACK } from './the-things-stack';

const downlink: Downlink = { commandUid: 42, eui: '70B3D57ED0001234', port: 10, confirmed: true, payload: Uint8Array.from([1, 2]) };
const target = { baseUrl: 'https://ns.example.org/', applicationId: 'farm', webhookId: 'dts' };
const now = new Date('2026-05-01T12:00:10Z');

function callOf(network: Network): DownlinkCall {
  if (network.downlink?.via !== 'api') throw new Error(`${network.kind} has no API downlink`);
  return network.downlink.call(target, downlink);
}

const event = (network: Network, body: unknown, query: Record<string, unknown> = {}) => {
  const delivery = network.ingest!.read(body, query, now);
  return 'event' in delivery ? delivery.event : null;
};

describe('the network registry', () => {
  it('names each network once: kind, uid and ingest path', () => {
    for (const key of ['kind', 'uid', 'name'] as const) expect(new Set(NETWORKS.map((n) => n[key])).size).toBe(NETWORKS.length);
    const paths = NETWORKS.flatMap((n) => (n.ingest ? [n.ingest.path] : []));
    expect(new Set(paths).size).toBe(paths.length);
    // Global rows take uids below 101: accounts' own networks are numbered from there (the seed migration).
    expect(NETWORKS.filter((n) => !(n.uid > 0 && n.uid < 101))).toEqual([]);
    expect(networkByKind('ttn')).toBe(THE_THINGS_STACK);
    expect(networkByKind(null)).toBeNull();
    expect(networkByKind('toString')).toBeNull();
  });

  it('gives each network with an ingest route its own route and handler, and the others none', () => {
    expect(INGEST_NETWORKS.map((n) => [n.kind, ingestRouteOf(n.ingest).path, ingestHandlerName(n.ingest)])).toEqual([
      ['ttn', '/ingest/ttn', 'ttn'],
      ['chirpstack', '/ingest/chirpstack', 'chirpstack'],
      ['rest', '/ingest/rest', 'rest'],
      ['http-json', '/ingest/http/{uid}', 'http'],
    ]);
    expect(NETWORKS.filter((n) => !INGEST_NETWORKS.includes(n as never)).map((n) => n.kind)).toEqual(['simulated']);
    for (const n of INGEST_NETWORKS) {
      expect(n.ingest.doc.summary).not.toBe('');
      expect(ingestHandlerName(n.ingest)).toMatch(/^[a-z][a-zA-Z0-9]*$/);
    }
    expect(ingestHandlerName({ ...REST.ingest!, path: 'my-network_v2' })).toBe('myNetworkV2');
  });

  it('names the kinds an account may add, as the wire type names them', () => {
    expect(ACCOUNT_NETWORK_KINDS).toEqual(['ttn', 'chirpstack', 'http-json']);
    expect([...ACCOUNT_NETWORK_KINDS].sort()).toEqual([...NETWORK_ADAPTERS].sort());
    // An account's own network of a kind reached through its API must take downlinks through it.
    for (const kind of ACCOUNT_NETWORK_KINDS) {
      const network = networkByKind(kind)!;
      if (network.account?.via === 'api') expect(network.downlink?.via).toBe('api');
      else expect(network.ingest?.byUid).toBe(true);
    }
  });
});

describe('downlinks', () => {
  it('queue on ChirpStack by its queue API, named by the id it answers', () => {
    const call = callOf(CHIRPSTACK);
    expect(call.url).toBe('https://ns.example.org/api/devices/70b3d57ed0001234/queue');
    expect(call.body).toEqual({ queueItem: { confirmed: true, fPort: 10, data: bytesToBase64(downlink.payload) } });
    expect(call.networkId({ id: 'q-1' })).toBe('q-1');
    expect(() => call.networkId({})).toThrow(PermanentDownlinkError);
  });

  it('push to The Things Stack through the webhook, named by our correlation id', () => {
    const call = callOf(THE_THINGS_STACK);
    expect(call.url).toBe('https://ns.example.org/api/v3/as/applications/farm/webhooks/dts/devices/eui-70b3d57ed0001234/down/push');
    expect(call.body).toEqual({
      downlinks: [{ f_port: 10, frm_payload: 'AQI=', confirmed: true, priority: 'NORMAL', correlation_ids: ['dts:command:42'] }],
    });
    expect(call.networkId({})).toBe('dts:command:42');
    expect(() => THE_THINGS_STACK.downlink?.via === 'api' && THE_THINGS_STACK.downlink.call({ ...target, webhookId: null }, downlink)).toThrow(
      PermanentDownlinkError,
    );
  });

  it('are taken at once by the simulated network', () => {
    expect(SIMULATED.downlink?.via === 'simulated' && SIMULATED.downlink.accept(downlink)).toBe('sim:42');
  });
});

describe('downlink events', () => {
  it('from The Things Stack name our command by correlation id', () => {
    expect(event(THE_THINGS_STACK, { correlation_ids: ['dts:command:7'], downlink_ack: {} })).toEqual({
      command: { uid: 7 },
      status: 'Acknowledged',
      reason: null,
    });
    expect(event(THE_THINGS_STACK, { downlink_failed: { downlink: { correlation_ids: ['dts:command:8'] }, error: { message_format: 'no window' } } })).toEqual({
      command: { uid: 8 },
      status: 'Failed',
      reason: 'no window',
    });
    // A downlink this service did not send names no command: answered as unknown, never refused.
    expect(event(THE_THINGS_STACK, { downlink_sent: {} })).toEqual({ command: null, status: 'Sent', reason: null });
  });

  it('from ChirpStack name the queue item', () => {
    expect(event(CHIRPSTACK, { queueItemId: 'q-1' }, { event: 'txack' })).toEqual({ command: { networkId: 'q-1' }, status: 'Sent', reason: null });
    expect(event(CHIRPSTACK, { queueItemId: 'q-1', acknowledged: false }, { event: 'ack' })).toMatchObject({ status: 'Failed' });
    expect(() => event(CHIRPSTACK, {}, { event: 'ack' })).toThrow(DeliveryError);
    expect(() => event(CHIRPSTACK, {}, { event: 'gateway' })).toThrow(expect.objectContaining({ field: 'event' }));
  });
});
