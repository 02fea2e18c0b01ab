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
    doc: {
      summary: 'Generic uplinks: one object or an array of up to 1,000',
      description:
        'Each item: {devEUI, port, payload_raw (Base64) | payload_hex, time_stamp_unix?, network?, SF?, RSSI?, SNR?, geoloc_lat?, geoloc_lon?, geoloc_alt?, fcnt?, gateways?: [{gateway_id, rssi?, snr?, lat?, lon?}]}. ' +
        'Unknown members refuse the item. With fcnt and time_stamp_unix, a redelivered item is stored once.',
      body: {
        required: true,
        description: 'One uplink, or an array of 1 to 1,000.',
        // RestUplinkBody: the api's documentation class of RestUplinkRequest (apps/api ingest/dto).
        schema: {
          oneOf: [
            { $ref: '#/components/schemas/RestUplinkBody' },
            { type: 'array', minItems: 1, maxItems: 1000, items: { $ref: '#/components/schemas/RestUplinkBody' } },
          ],
        },
      },
    },
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
  account: null,
  seed: { description: 'Any integrator posting uplinks to POST /ingest/rest.', interface: 'REST', typeRef: 7, lorawanNetId: null },
};
