import { bytesToBase64 } from '../../payload';
import { type Downlink, type DownlinkCall, type DownlinkTarget, PermanentDownlinkError, trimBaseUrl } from '../network';
import { correlationId } from './events';

/**
 * The Things Stack v3: push through the application's webhook; our correlation id comes back in the
 * downlink events (downlink_sent, _ack, _nack, _failed).
 */
export function ttsDownlinkCall(target: DownlinkTarget, d: Downlink): DownlinkCall {
  if (!target.applicationId || !target.webhookId) throw new PermanentDownlinkError('the network has no application_id or webhook_id');
  const correlation = correlationId(d.commandUid);
  const application = encodeURIComponent(target.applicationId);
  const webhook = encodeURIComponent(target.webhookId);
  return {
    url: `${trimBaseUrl(target.baseUrl)}/api/v3/as/applications/${application}/webhooks/${webhook}/devices/eui-${d.eui.toLowerCase()}/down/push`,
    body: {
      downlinks: [{ f_port: d.port, frm_payload: bytesToBase64(d.payload), confirmed: d.confirmed, priority: 'NORMAL', correlation_ids: [correlation] }],
    },
    networkId: () => correlation,
  };
}
