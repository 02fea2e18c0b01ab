import { isObj, type Obj } from '../read';
import { type DownlinkTarget, type NetworkCall, type NetworkQueue, noRemoval, PermanentDownlinkError, type QueueRemoval, trimBaseUrl } from '../network';

/**
 * The Things Stack v3's downlink queue (the Application Server's AppAs service): `GET
 * /api/v3/as/applications/{app}/devices/{device}/down` lists it, `POST …/down/replace
 * {downlinks}` replaces it. Taking ours out is: list, replace with the others. Ours are known by
 * the correlation id they carry (`dts:command:<uid>`, the network id of each). A downlink the
 * network has transmitted is no longer in the queue (`gone`), also while it awaits its
 * acknowledgement. Between the list and the replace the network may still transmit the queue's
 * head; the replace then queues that one again (TTS's API offers no way around it). The API key
 * needs the rights to read and write the application's traffic.
 */
export const TTS_QUEUE: NetworkQueue = {
  *remove(target: DownlinkTarget, eui: string, networkIds: readonly string[]): Generator<NetworkCall, QueueRemoval, unknown> {
    if (!target.applicationId) throw new PermanentDownlinkError('the network has no application_id');
    const device = `${trimBaseUrl(target.baseUrl)}/api/v3/as/applications/${encodeURIComponent(target.applicationId)}/devices/eui-${eui.toLowerCase()}`;
    const outcome = noRemoval();
    const listed = yield { method: 'GET', url: `${device}/down` };
    const items = (isObj(listed) && Array.isArray(listed.downlinks) ? listed.downlinks : []).filter(isObj);
    const idOf = (item: Obj) => (Array.isArray(item.correlation_ids) ? networkIds.find((id) => (item.correlation_ids as unknown[]).includes(id)) : undefined);
    const found = new Set(items.flatMap((i) => idOf(i) ?? []));
    outcome.gone = networkIds.filter((id) => !found.has(id));
    if (found.size === 0) return outcome;
    yield { method: 'POST', url: `${device}/down/replace`, body: { downlinks: items.filter((i) => idOf(i) === undefined).map(replaced) } };
    outcome.removed = [...found];
    return outcome;
  },
};

/** The members a queued downlink is pushed with; what the network assigned (session key id, frame counter) it assigns again. */
const KEPT = ['f_port', 'frm_payload', 'decoded_payload', 'confirmed', 'priority', 'class_b_c', 'correlation_ids', 'confirmed_retry'] as const;

function replaced(item: Obj): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of KEPT) if (item[key] !== undefined) out[key] = item[key];
  // The bytes, when listed, are what the device gets: a formatter need not encode them again.
  if (out.frm_payload !== undefined) delete out.decoded_payload;
  return out;
}
