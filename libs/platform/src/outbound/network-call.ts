import { type NetworkCall, PermanentDownlinkError } from '@dts/domain';
import { ForbiddenAddressError, outboundRequest } from './outbound-http';

/**
 * The network's API key, whether its address may be loopback, link-local or private
 * (OUTBOUND_ALLOW_PRIVATE), and how long its API has to answer one call (NETWORK_TIMEOUT_MS).
 */
export interface NetworkCredentials {
  apiKey: string;
  allowPrivate: boolean;
  timeoutMs: number;
}

/**
 * One call a network's definition describes (libs/domain networks/<name>/), with the key as a bearer
 * token. Resolves with the parsed JSON answer ({} when it has none or it is not JSON). A failure a
 * retry cannot mend (another 4xx, a redirect, a forbidden address) is a PermanentDownlinkError; a
 * timeout, a refused connection, 408, 429 and 5xx are plain Errors (worth another try).
 */
export async function callNetwork(credentials: NetworkCredentials, call: NetworkCall): Promise<unknown> {
  let res: { status: number; text: string };
  try {
    // Every address the host resolves to is judged as the connection is made, on the same answer
    // the connection uses (no DNS rebinding between check and connect); a redirect could lead
    // anywhere, including where the check forbids: none is followed.
    res = await outboundRequest(call.url, {
      method: call.method,
      headers: {
        Authorization: `Bearer ${credentials.apiKey}`,
        Accept: 'application/json',
        ...(call.body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      body: call.body === undefined ? undefined : JSON.stringify(call.body),
      timeoutMs: credentials.timeoutMs,
      allowPrivate: credentials.allowPrivate,
    });
  } catch (error) {
    const e = error as Error;
    if (e instanceof ForbiddenAddressError) throw new PermanentDownlinkError(`the network's base_url: ${e.message}`);
    throw new Error(
      e.name === 'TimeoutError' ? `the network did not answer within ${credentials.timeoutMs} ms` : `the network could not be reached: ${e.message}`,
    );
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

/**
 * Carries out a conversation a network's definition leads (NetworkQueue.remove): each call it yields
 * is made and its answer handed back, or its failure thrown into it, until it returns.
 */
export async function converse<T>(credentials: NetworkCredentials, conversation: Generator<NetworkCall, T, unknown>): Promise<T> {
  let step = conversation.next();
  while (!step.done) {
    let answer: unknown;
    let failure: unknown = null;
    try {
      answer = await callNetwork(credentials, step.value);
    } catch (error) {
      failure = error;
    }
    step = failure === null ? conversation.next(answer) : conversation.throw(failure);
  }
  return step.value;
}
