import { bytesToBase64 } from '@dts/domain';
import { ForbiddenAddressError, outboundRequest } from '@dts/platform';

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
  /** OUTBOUND_ALLOW_PRIVATE: whether the address may be loopback, link-local or private. */
  allowPrivate: boolean;
}

/** A failure that a retry cannot mend (bad key, unknown device, bad request): the command fails now. */
export class PermanentDownlinkError extends Error {}

/** The network's id of a queued downlink: what its events name the command by. */
export interface Queued {
  networkId: string;
}

export const DOWNLINK_TIMEOUT_MS = 10_000;

async function post(target: NetworkTarget, url: string, body: unknown): Promise<unknown> {
  let res: { status: number; text: string };
  try {
    // Every address the host resolves to is judged as the connection is made, on the same answer
    // the connection uses (no DNS rebinding between check and connect); a redirect could lead
    // anywhere, including where the check forbids: none is followed.
    res = await outboundRequest(url, {
      method: 'POST',
      headers: { Authorization: `Bearer ${target.apiKey}`, 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify(body),
      timeoutMs: DOWNLINK_TIMEOUT_MS,
      allowPrivate: target.allowPrivate,
    });
  } catch (error) {
    const e = error as Error;
    if (e instanceof ForbiddenAddressError) throw new PermanentDownlinkError(`the network's base_url: ${e.message}`);
    throw new Error(e.name === 'TimeoutError' ? `the network did not answer within ${DOWNLINK_TIMEOUT_MS} ms` : `the network could not be reached: ${e.message}`);
  }
  const text = res.text;
  if (res.status >= 200 && res.status < 300) {
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
  const answer = (await post(target, `${trim(target.baseUrl)}/api/devices/${req.eui.toLowerCase()}/queue`, {
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
    target,
    `${trim(target.baseUrl)}/api/v3/as/applications/${encodeURIComponent(target.applicationId)}/webhooks/${encodeURIComponent(target.webhookId)}/devices/${device}/down/push`,
    { downlinks: [{ f_port: req.port, frm_payload: bytesToBase64(req.payload), confirmed: req.confirmed, priority: 'NORMAL', correlation_ids: [correlation] }] },
  );
  return { networkId: correlation };
}

/** The built-in simulated network: takes every downlink at once. */
export async function sendSimulated(req: DownlinkRequest): Promise<Queued> {
  return { networkId: `sim:${req.commandUid}` };
}
