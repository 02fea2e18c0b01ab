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
};
