import { WEBHOOK_NOTE } from '../ingest-doc';
import { DeliveryError, type Network } from '../network';
import { isObj, parseItem } from '../read';
import { ttsDownlinkCall } from './downlink';
import { isTtsDownlinkStatus, readTtsDownlinkEvent, readTtsOtherMessage, TTS_MESSAGES, ttsMessageOf } from './events';
import { TTS_QUEUE } from './queue';
import { parseTtnUplink } from './uplink';

export { correlationId, TTS_MESSAGES } from './events';
export * from './samples';
export { parseTtnUplink } from './uplink';

/**
 * The Things Stack v3: one webhook for every message type it can be set to send (uplinks, joins,
 * downlink events, solved locations, service data), downlinks by the push API.
 */
export const THE_THINGS_STACK: Network = {
  kind: 'ttn',
  uid: 2,
  name: 'The Things Stack',
  ingest: {
    path: 'ttn',
    doc: {
      summary: 'The Things Stack v3 webhook: every message type a webhook sends',
      description:
        `${WEBHOOK_NOTE} The message member says what a body is: uplink_message and uplink_normalized are stored as uplinks; ` +
        'join_accept spans the device’s activity times; downlink_sent/ack/nack/failed move our command (one not sent by this service is ' +
        'reported as NOT_FOUND in the 202 body); location_solved sets the network position of the uplink it was solved from; downlink_queued, ' +
        'downlink_queue_invalidated and service_data are acknowledged. Other than uplinks and downlink statuses, the answer’s `event` says what was done. ' +
        'A body with none of these members is 400 naming `body`.',
      body: {
        schema: {
          type: 'object',
          description: `The Things Stack v3 ApplicationUp: end_device_ids, correlation_ids, received_at and one of ${TTS_MESSAGES.join(', ')}`,
        },
      },
    },
    read(body, _query, now) {
      if (!isObj(body)) throw new DeliveryError('body', 'must be an object (a The Things Stack webhook message)');
      const key = ttsMessageOf(body);
      if (key === null) throw new DeliveryError('body', `carries none of the messages The Things Stack sends (${TTS_MESSAGES.join(', ')})`);
      if (isTtsDownlinkStatus(key)) return { event: readTtsDownlinkEvent(body, key) };
      if (key !== 'uplink_message' && key !== 'uplink_normalized') return readTtsOtherMessage(body, key, now);
      return {
        uplinks: [
          parseItem(
            body,
            (b) => parseTtnUplink(b, now, key),
            (b) => (b.end_device_ids as Record<string, unknown> | undefined)?.dev_eui,
          ),
        ],
      };
    },
  },
  downlink: { via: 'api', call: ttsDownlinkCall, queue: TTS_QUEUE },
  account: { via: 'api', requires: ['application_id', 'webhook_id'] },
  seed: {
    description: 'The Things Stack v3: uplinks by webhook (POST /ingest/ttn), downlinks by the push API.',
    interface: 'REST',
    typeRef: 1,
    lorawanNetId: '000013',
  },
};
