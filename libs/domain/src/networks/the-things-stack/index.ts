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
};
