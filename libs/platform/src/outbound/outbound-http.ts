import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { type Agent, request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { isForbiddenAddress } from './outbound-url';

/** The resolver a guarded connection asks (node:dns by default; a stub in tests). */
export type Resolver = (
  hostname: string,
  options: { all: true; family?: number; hints?: number },
  callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

const systemResolver: Resolver = (hostname, options, callback) => dnsLookup(hostname, { ...options, all: true, verbatim: true }, callback);

/** An outbound connection refused because its host resolved to a forbidden address. */
export class ForbiddenAddressError extends Error {
  readonly code = 'EFORBIDDENADDRESS';
}

/**
 * A `lookup` for http(s).request that judges every address the name resolves to at the moment
 * of connecting, and connects only to an address it judged. Checking a URL once before the call
 * is not enough: a name can resolve to a public address for the check and to 127.0.0.1 for the
 * connection a moment later (DNS rebinding). Here the check and the connection use one answer.
 */
export function guardedLookup(allowPrivate: boolean, resolver: Resolver = systemResolver): LookupFunction {
  return (hostname, options, callback) => {
    resolver(hostname, { all: true, family: options.family as number | undefined, hints: options.hints }, (error, addresses) => {
      if (error) return callback(error, '', 0);
      const [first] = addresses;
      if (!first) return callback(Object.assign(new Error(`host ${hostname} does not resolve`), { code: 'ENOTFOUND' }), '', 0);
      const forbidden = allowPrivate ? undefined : addresses.find((a) => isForbiddenAddress(a.address));
      if (forbidden)
        return callback(new ForbiddenAddressError(`host ${hostname} resolves to a loopback, link-local or private address (${forbidden.address})`), '', 0);
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      callback(null, first.address, first.family);
    });
  };
}

export interface OutboundRequest {
  method: 'POST' | 'GET' | 'DELETE';
  headers: Record<string, string>;
  body?: string;
  timeoutMs: number;
  allowPrivate: boolean;
  /** For tests: the resolver the guarded lookup asks. */
  resolver?: Resolver;
  /**
   * A keep-alive agent (webhook deliveries reuse connections); its new connections still go
   * through the guarded lookup. Default: a connection per request.
   */
  agent?: Agent;
  /** Ends the exchange before its timeout (the caller no longer wants the answer); rejects with its reason. */
  signal?: AbortSignal;
}

export interface OutboundResponse {
  status: number;
  text: string;
}

/**
 * One HTTP(S) request to an address configured by an account (a network's base_url): only http
 * and https, no credentials in the URL, every resolved address checked as the connection is made
 * (an IP literal before it), redirects never followed (a 3xx is returned as it is), a timeout
 * over the whole exchange, and at most 1 MiB of answer read.
 */
export function outboundRequest(rawUrl: string, req: OutboundRequest): Promise<OutboundResponse> {
  return new Promise((resolve, reject) => {
    let url: URL;
    try {
      url = new URL(rawUrl);
    } catch {
      return reject(new Error('the URL is not valid'));
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return reject(new Error('only http and https are called'));
    if (url.username || url.password) return reject(new Error('the URL carries credentials'));
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (!req.allowPrivate && isIP(host) && isForbiddenAddress(host))
      return reject(new ForbiddenAddressError(`host ${host} is a loopback, link-local or private address`));
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const timeout = AbortSignal.timeout(req.timeoutMs);
    const signal = req.signal ? AbortSignal.any([timeout, req.signal]) : timeout;
    const failed = (error: Error) =>
      reject(
        timeout.aborted
          ? Object.assign(new Error('timed out'), { name: 'TimeoutError' })
          : req.signal?.aborted
            ? Object.assign(new Error(`abandoned: ${String(req.signal.reason instanceof Error ? req.signal.reason.message : req.signal.reason)}`), {
                name: 'AbortError',
              })
            : error,
      );
    // A kept-alive connection the receiver closed while idle fails the next request on it with
    // ECONNRESET before anything was read: Node's documented case for `reusedSocket`. That
    // request is sent once more on a new connection (a delivery is at-least-once and carries
    // its webhook-id); a reset on a new connection is the receiver's answer and is reported.
    let resent = false;
    const start = () => {
      const outgoing = send(
        url,
        {
          method: req.method,
          headers: req.body === undefined ? req.headers : { ...req.headers, 'Content-Length': String(Buffer.byteLength(req.body)) },
          lookup: guardedLookup(req.allowPrivate, req.resolver),
          signal,
          agent: req.agent ?? false,
        },
        (res) => {
          const chunks: Buffer[] = [];
          let size = 0;
          res.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size <= 1024 * 1024) chunks.push(chunk);
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
          // Aborted mid-body (the timeout, the caller) the answer ends in an error too: said the same way.
          res.on('error', failed);
        },
      );
      outgoing.on('error', (error: NodeJS.ErrnoException) => {
        if (!resent && outgoing.reusedSocket && !signal.aborted && (error.code === 'ECONNRESET' || error.code === 'EPIPE')) {
          resent = true;
          return start();
        }
        failed(error);
      });
      outgoing.end(req.body);
    };
    start();
  });
}
