import { MAX_INGEST_ITEMS } from '../uplink';
import { DeliveryError, type Network } from '../network';
import { parseItem } from '../read';
import { DEFAULT_HTTP_JSON_MAPPING, readHttpJsonMapping, valueAt } from './mapping';
import { compileMapping, parseHttpJsonUplink } from './uplink';

export * from './mapping';
export { parseHttpJsonUplink } from './uplink';

/**
 * Any server that posts JSON: each account network of this kind says where its items keep the
 * device EUI, port, payload and the rest (its mapping); the global one reads
 * `{devEUI, port, payload (hex), time?, rssi?, snr?, fcnt?, id?}`. Uplinks only.
 */
export const HTTP_JSON: Network = {
  kind: 'http-json',
  uid: 5,
  name: 'HTTP JSON',
  ingest: {
    path: 'http',
    byUid: true,
    doc: {
      summary: 'HTTP JSON: any server’s uplinks, read through the network’s field mapping',
      description:
        'The network is the global HTTP JSON network (uid 5: {devEUI, port, payload (hex), time?, rssi?, snr?, fcnt?, id?}) or one of the caller’s own ' +
        '(POST /user/network {adapter: "http-json", mapping}); an account network reaches its account’s devices only. One item or an array of up to ' +
        '1,000 (or the array at the mapping’s `items`). A refused item names the path its mapping gives the member. Another account’s network, or a ' +
        'network of another kind, is 404.',
      body: { schema: { description: 'The sender’s own JSON: one item, an array of items, or an object holding them at the mapping’s `items`.' } },
    },
    read(body, _query, now, settings) {
      const mapping = settings === undefined || settings === null ? DEFAULT_HTTP_JSON_MAPPING : readHttpJsonMapping(settings);
      if ('field' in mapping) throw new Error(`stored mapping: ${mapping.message}`);
      const compiled = compileMapping(mapping);
      const list = compiled.items === null ? body : valueAt(body, compiled.items);
      if (compiled.items !== null && !Array.isArray(list)) throw new DeliveryError(String(mapping.items), `${mapping.items} must be an array of uplinks`);
      const items = Array.isArray(list) ? list : [list];
      if (items.length === 0) throw new DeliveryError('body', 'send one uplink object or an array of 1 to 1,000');
      if (items.length > MAX_INGEST_ITEMS) throw new DeliveryError('body', `at most ${MAX_INGEST_ITEMS} uplinks per request`);
      const euiOf = (item: Record<string, unknown>) => (compiled.devEUI === null ? undefined : valueAt(item, compiled.devEUI));
      return { uplinks: items.map((item) => parseItem(item, (b) => parseHttpJsonUplink(b, mapping, compiled, now), euiOf)) };
    },
  },
  downlink: null,
  account: { via: 'mapping', requires: [] },
  seed: {
    description:
      'Any server posting JSON uplinks to POST /ingest/http/{uid}: the global network reads {devEUI, port, payload (hex)}; an account network maps its own members.',
    interface: 'REST',
    typeRef: 7,
    lorawanNetId: null,
  },
};
