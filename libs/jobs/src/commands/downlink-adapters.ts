import { bytesToBase64 } from '@dts/domain';

export interface DownlinkRequest {
  commandUid: number;
  eui: string;
  port: number;
  confirmed: boolean;
  payload: Uint8Array;
}

export interface NetworkTarget {
  baseUrl: string;
  apiKey: string;
  applicationId: string | null;
  webhookId: string | null;
}

/** A failure that a retry cannot mend (bad key, unknown device, bad request): the command fails now. */
export class PermanentDownlinkError extends Error {}

/** The network's id of a queued downlink: what its events name the command by. */
export interface Queued {
  networkId: string;
}

export const DOWNLINK_TIMEOUT_MS = 10_000;

async function post(url: string, apiKey: string, body: unknown): Promise<unknown> {
  let res: Response;
  try {
    res = await fetch(url, {
      method: 'POST',
      headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify(body),
      // A redirect could lead anywhere, including where the URL check forbids: none is followed.
      redirect: 'manual',
      signal: AbortSignal.timeout(DOWNLINK_TIMEOUT_MS),
    });
  } catch (error) {
    const e = error as Error;
    throw new Error(e.name === 'TimeoutError' ? `the network did not answer within ${DOWNLINK_TIMEOUT_MS} ms` : `the network could not be reached: ${e.message}`);
  }
  const text = await res.text().catch(() => '');
  if (res.ok) {
    try {
      return text ? JSON.parse(text) : {};
    } catch {
      return {};
    }
  }
  const detail = `the network answered ${res.status}${text ? `: ${text.slice(0, 200)}` : ''}`;
  if (res.status >= 300 && res.status < 400) throw new PermanentDownlinkError(`${detail} (redirects are not followed)`);
  if (res.status === 408 || res.status === 429 || res.status >= 500) throw new Error(detail);
  throw new PermanentDownlinkError(detail);
}

const trim = (url: string) => url.replace(/\/+$/, '');

/** ChirpStack v4: POST /api/devices/{devEui}/queue {queueItem}; the answer's id names the item in txack/ack events. */
export async function sendChirpstack(target: NetworkTarget, req: DownlinkRequest): Promise<Queued> {
  const answer = (await post(`${trim(target.baseUrl)}/api/devices/${req.eui.toLowerCase()}/queue`, target.apiKey, {
    queueItem: { confirmed: req.confirmed, fPort: req.port, data: bytesToBase64(req.payload) },
  })) as { id?: unknown };
  if (typeof answer.id !== 'string' || answer.id === '') throw new PermanentDownlinkError('the network accepted the downlink but returned no queue item id');
  return { networkId: answer.id };
}

/**
 * The Things Stack v3: push through the application's webhook; our correlation id comes back in the
 * downlink events (downlink_sent, _ack, _nack, _failed).
 */
export async function sendTheThingsStack(target: NetworkTarget, req: DownlinkRequest): Promise<Queued> {
  if (!target.applicationId || !target.webhookId) throw new PermanentDownlinkError('the network has no application_id or webhook_id');
  const correlation = `dts:command:${req.commandUid}`;
  const device = `eui-${req.eui.toLowerCase()}`;
  await post(
    `${trim(target.baseUrl)}/api/v3/as/applications/${encodeURIComponent(target.applicationId)}/webhooks/${encodeURIComponent(target.webhookId)}/devices/${device}/down/push`,
    target.apiKey,
    { downlinks: [{ f_port: req.port, frm_payload: bytesToBase64(req.payload), confirmed: req.confirmed, priority: 'NORMAL', correlation_ids: [correlation] }] },
  );
  return { networkId: correlation };
}

/** The built-in simulated network: takes every downlink at once. */
export async function sendSimulated(req: DownlinkRequest): Promise<Queued> {
  return { networkId: `sim:${req.commandUid}` };
}
