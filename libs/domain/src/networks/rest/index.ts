import { DeliveryError, type Network } from '../network';
import { parseItem } from '../read';
import { MAX_INGEST_ITEMS } from '../uplink';
import { parseRestUplink } from './uplink';

export { parseRestUplink } from './uplink';

/** The service's own uplink format, for any integrator: one object or an array of up to 1,000; no downlinks. */
export const REST: Network = {
  kind: 'rest',
  uid: 4,
  name: 'Generic REST',
  ingest: {
    path: 'rest',
    read(body, _query, now) {
      const items = Array.isArray(body) ? body : [body];
      if (items.length === 0) throw new DeliveryError('body', 'send one uplink object or an array of 1 to 1,000');
      if (items.length > MAX_INGEST_ITEMS) throw new DeliveryError('body', `at most ${MAX_INGEST_ITEMS} uplinks per request`);
      return {
        uplinks: items.map((item) =>
          parseItem(
            item,
            (b) => parseRestUplink(b, now),
            (b) => b.devEUI,
          ),
        ),
      };
    },
  },
  downlink: null,
};
