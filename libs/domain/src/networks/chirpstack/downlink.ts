import { bytesToBase64 } from '../../payload';
import { type Downlink, type DownlinkCall, type DownlinkTarget, PermanentDownlinkError, trimBaseUrl } from '../network';

/** ChirpStack v4: POST /api/devices/{devEui}/queue {queueItem}; the answer's id names the item in txack/ack events. */
export function chirpstackDownlinkCall(target: DownlinkTarget, d: Downlink): DownlinkCall {
  return {
    url: `${trimBaseUrl(target.baseUrl)}/api/devices/${d.eui.toLowerCase()}/queue`,
    body: { queueItem: { confirmed: d.confirmed, fPort: d.port, data: bytesToBase64(d.payload) } },
    networkId(answer) {
      const id = typeof answer === 'object' && answer !== null ? (answer as { id?: unknown }).id : undefined;
      if (typeof id !== 'string' || id === '') throw new PermanentDownlinkError('the network accepted the downlink but returned no queue item id');
      return id;
    },
  };
}
