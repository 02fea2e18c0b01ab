import { connect as netConnect, isIP, Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { ForbiddenAddressError, guardedLookup } from './outbound-http';
import { isForbiddenAddress, outboundUrlProblem } from './outbound-url';

export interface BrokerAddress {
  tls: boolean;
  host: string;
  port: number;
}

/** An MQTT broker URL taken apart: `mqtt://host[:1883]` or `mqtts://host[:8883]`, nothing else in it. */
export function parseBrokerUrl(raw: string): BrokerAddress | string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'is not a URL';
  }
  if (url.protocol !== 'mqtt:' && url.protocol !== 'mqtts:') return 'must use mqtt or mqtts';
  if (url.username || url.password) return 'must not carry credentials (give username and password)';
  if ((url.pathname && url.pathname !== '/') || url.search || url.hash) return 'must be scheme://host[:port] only';
  if (!url.hostname) return 'must name a host';
  const tls = url.protocol === 'mqtts:';
  return { tls, host: url.hostname.replace(/^\[|\]$/g, ''), port: url.port ? Number(url.port) : tls ? 8883 : 1883 };
}

/**
 * Why the broker may not be connected to, or null: the same rules as any outbound address (no
 * loopback, link-local or private address unless OUTBOUND_ALLOW_PRIVATE), checked again at each
 * connection.
 */
export async function brokerUrlProblem(raw: string, allowPrivate: boolean): Promise<string | null> {
  const broker = parseBrokerUrl(raw);
  if (typeof broker === 'string') return broker;
  const host = isIP(broker.host) === 6 ? `[${broker.host}]` : broker.host;
  return outboundUrlProblem(`http://${host}:${broker.port}/`, allowPrivate);
}

/**
 * A TCP (or TLS) connection to the broker whose address is judged as it is made, on the DNS answer
 * the connection uses (no rebinding between a check and the connection), as outboundRequest does.
 */
export function guardedBrokerSocket(broker: BrokerAddress, allowPrivate: boolean): Socket {
  if (!allowPrivate && isIP(broker.host) && isForbiddenAddress(broker.host)) {
    // Never connected: fails as a connection would, once the caller listens.
    const socket = new Socket();
    setImmediate(() => socket.destroy(new ForbiddenAddressError(`host ${broker.host} is a loopback, link-local or private address`)));
    return socket;
  }
  const lookup = guardedLookup(allowPrivate);
  return broker.tls
    ? tlsConnect({ host: broker.host, port: broker.port, servername: isIP(broker.host) ? undefined : broker.host, lookup })
    : netConnect({ host: broker.host, port: broker.port, lookup });
}
