import { WEBHOOK_NOTE } from '../ingest-doc';
import { DeliveryError, type Network } from '../network';
import { parseItem } from '../read';
import { chirpstackDownlinkCall } from './downlink';
import { CHIRPSTACK_EVENTS, isChirpstackEvent, readChirpstackDownlinkEvent, readChirpstackOtherEvent } from './events';
import { chirpstackProtobufToJson } from './protobuf';
import { CHIRPSTACK_QUEUE } from './queue';
import { parseChirpstackUplink } from './uplink';

export { CHIRPSTACK_EVENTS } from './events';
export { chirpstackProtobufToJson } from './protobuf';
export * from './samples';
export { parseChirpstackUplink } from './uplink';

/**
 * ChirpStack v4: the HTTP integration posts every event to one URL with `?event=`, as JSON or (its
 * `marshaler: protobuf`) as Protobuf in an application/octet-stream body; downlinks by the queue API.
 */
export const CHIRPSTACK: Network = {
  kind: 'chirpstack',
  uid: 3,
  name: 'ChirpStack',
  ingest: {
    path: 'chirpstack',
    binary: true,
    doc: {
      summary: 'ChirpStack v4 HTTP integration: every event, JSON or Protobuf',
      description:
        `${WEBHOOK_NOTE} The event comes in the query: up (uplinks), txack and ack (our downlinks), join (the device’s activity times), ` +
        'status (battery level), location (the network position of the uplink with the same deduplicationId), log (written to the service’s log), ' +
        'integration (acknowledged; JSON only). Other than up, txack and ack, the answer’s `event` says what was done. The body is the JSON ' +
        'encoding (application/json) or the Protobuf one (application/octet-stream, the integration’s protobuf marshaler).',
      query: { name: 'event', values: CHIRPSTACK_EVENTS },
      body: {
        schema: {
          oneOf: [
            { type: 'object', description: 'ChirpStack v4 event, JSON (deduplicationId, time, deviceInfo, fCnt, fPort, data, rxInfo, txInfo, …)' },
            { type: 'string', format: 'binary', description: 'The same event in ChirpStack’s Protobuf encoding (integration.proto)' },
          ],
        },
      },
    },
    read(raw, query, now) {
      const event = query.event;
      if (!isChirpstackEvent(event)) throw new DeliveryError('event', `event must be one of ${CHIRPSTACK_EVENTS.join(', ')}`);
      // The body parser hands an application/octet-stream body over as its bytes.
      const body = raw instanceof Uint8Array ? chirpstackProtobufToJson(event, raw) : raw;
      if (event === 'txack' || event === 'ack') return { event: readChirpstackDownlinkEvent(event, body) };
      if (event !== 'up') return readChirpstackOtherEvent(event, body, now);
      return {
        uplinks: [
          parseItem(
            body,
            (b) => parseChirpstackUplink(b, now),
            (b) => (b.deviceInfo as Record<string, unknown> | undefined)?.devEui,
          ),
        ],
      };
    },
  },
  downlink: { via: 'api', call: chirpstackDownlinkCall, queue: CHIRPSTACK_QUEUE },
  account: { via: 'api', requires: [] },
  seed: {
    description: 'ChirpStack v4: uplinks by HTTP integration (POST /ingest/chirpstack), downlinks by the queue API.',
    interface: 'REST',
    typeRef: 1,
    lorawanNetId: null,
  },
};
