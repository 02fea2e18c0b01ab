import { isObj, type Obj } from '../read';
import { type DownlinkTarget, type NetworkCall, type NetworkQueue, noRemoval, type QueueRemoval, trimBaseUrl } from '../network';

/**
 * ChirpStack v4's device queue (DeviceService: `GET /api/devices/{devEui}/queue` lists it,
 * `DELETE …/queue` flushes it, `POST …/queue {queueItem}` enqueues). It has no call that removes one
 * item, so taking some out is: list, flush, enqueue the rest again in their order. The rest get new
 * ids (`renamed`: ours must follow them, or their txack/ack would name unknown items). A downlink
 * already transmitted and awaiting its acknowledgement (`isPending`) is the device's now: it is
 * never taken out, and while one waits nothing is flushed, since the flush would drop it too.
 * Between the list and the flush ChirpStack may still transmit the queue's head; the refill then
 * queues that one again (ChirpStack's API offers no way around it).
 */
export const CHIRPSTACK_QUEUE: NetworkQueue = {
  *remove(target: DownlinkTarget, eui: string, networkIds: readonly string[]): Generator<NetworkCall, QueueRemoval, unknown> {
    const url = `${trimBaseUrl(target.baseUrl)}/api/devices/${eui.toLowerCase()}/queue`;
    const outcome = noRemoval();
    const listed = yield { method: 'GET', url };
    const items = (isObj(listed) && Array.isArray(listed.result) ? listed.result : []).filter(isObj).filter((i) => typeof i.id === 'string');
    const wanted = new Set(networkIds);
    const queued = new Map(items.map((i) => [i.id as string, i]));
    outcome.gone = networkIds.filter((id) => !queued.has(id));
    const ours = networkIds.filter((id) => queued.has(id));
    const pending = items.filter((i) => i.isPending === true);
    for (const id of ours) {
      if (queued.get(id)?.isPending === true) outcome.refused.push({ id, reason: 'the network sent it and awaits the device’s acknowledgement' });
      else if (pending.length > 0)
        outcome.refused.push({
          id,
          reason:
            'ChirpStack takes queue items out only by flushing the queue, which would also drop the downlink awaiting acknowledgement: try again once it is acknowledged',
        });
    }
    const removable = ours.filter((id) => !outcome.refused.some((r) => r.id === id));
    if (removable.length === 0) return outcome;
    yield { method: 'DELETE', url };
    outcome.removed = removable;
    const rest = items.filter((i) => !wanted.has(i.id as string));
    for (const [n, item] of rest.entries()) {
      try {
        const answer = yield { method: 'POST', url, body: { queueItem: requeued(item, eui) } };
        const id = isObj(answer) && typeof answer.id === 'string' ? answer.id : null;
        if (id) outcome.renamed.push({ from: item.id as string, to: id });
        else outcome.lost.push({ id: item.id as string, reason: 'the network queued it again but returned no queue item id' });
      } catch (error) {
        // The queue was flushed: what could not be put back is no longer queued anywhere.
        const reason = `flushed from the network's queue while another downlink was cancelled, and not queued again: ${(error as Error).message}`;
        for (const left of rest.slice(n)) outcome.lost.push({ id: left.id as string, reason });
        break;
      }
    }
    return outcome;
  },
};

/** A listed queue item as it is enqueued again: what ChirpStack needs, not what it assigned (id, isPending). */
function requeued(item: Obj, eui: string): Record<string, unknown> {
  const out: Record<string, unknown> = { devEui: eui.toLowerCase(), confirmed: item.confirmed === true, fPort: item.fPort, data: item.data };
  // An item the application encrypted itself keeps its frame counter: its payload was encrypted with it.
  if (item.isEncrypted === true) Object.assign(out, { isEncrypted: true, fCntDown: item.fCntDown });
  if (typeof item.expiresAt === 'string') out.expiresAt = item.expiresAt;
  return out;
}
