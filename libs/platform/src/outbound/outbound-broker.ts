import { connect as netConnect, isIP, Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { ForbiddenAddressError, guardedLookup } from './outbound-http';
import { isForbiddenAddress, outboundUrlProblem, parsedOutboundUrl } from './outbound-url';

export interface BrokerAddress {
  tls: boolean;
  host: string;
  port: number;
  /** The URL as parsed (WHATWG): what is stored and shown. */
  href: string;
}

/**
 * Ports of well-known services that do not speak MQTT, refused as broker ports unless
 * MQTT_ALLOWED_PORTS lists them: a broker URL is otherwise a way to make the service open a TCP
 * connection to any such service and send it an MQTT CONNECT (with the account's user name and
 * password), bytes a line-based server may act on. MQTT's own ports (1883, 8883) and the web ports
 * brokers also listen on (80, 443, 8080, 8443) are not here.
 */
export const REFUSED_BROKER_PORTS: ReadonlyMap<number, string> = new Map([
  [21, 'FTP'],
  [22, 'SSH'],
  [23, 'Telnet'],
  [25, 'SMTP'],
  [53, 'DNS'],
  [110, 'POP3'],
  [111, 'RPC portmapper'],
  [135, 'Microsoft RPC'],
  [139, 'NetBIOS'],
  [143, 'IMAP'],
  [389, 'LDAP'],
  [445, 'SMB'],
  [465, 'SMTP submission'],
  [587, 'SMTP submission'],
  [636, 'LDAPS'],
  [993, 'IMAPS'],
  [995, 'POP3S'],
  [1433, 'SQL Server'],
  [1521, 'Oracle'],
  [2049, 'NFS'],
  [2375, 'Docker'],
  [2376, 'Docker'],
  [2379, 'etcd'],
  [3306, 'MySQL'],
  [3389, 'RDP'],
  [5432, 'PostgreSQL'],
  [5672, 'AMQP'],
  [6379, 'Redis'],
  [6443, 'Kubernetes API'],
  [9200, 'Elasticsearch'],
  [10250, 'Kubelet'],
  [11211, 'memcached'],
  [27017, 'MongoDB'],
]);

/**
 * An MQTT broker URL taken apart: `mqtt://host[:1883]` or `mqtts://host[:8883]`, nothing else in
 * it, on a port from 1 to 65535 that is not one of REFUSED_BROKER_PORTS unless `allowedPorts`
 * lists it.
 */
export function parseBrokerUrl(raw: string, allowedPorts: readonly number[] = []): BrokerAddress | string {
  const url = parsedOutboundUrl(raw);
  if (typeof url === 'string') {
    // The parser refuses a port past 65535 as "not a URL": say what is wrong.
    const port = /^\s*mqtts?:\/\/[^/?#]*:(\d+)\s*\/?\s*$/i.exec(raw)?.[1];
    return url === 'is not a URL' && port !== undefined && Number(port) > 65_535 ? 'port must be from 1 to 65535' : url;
  }
  if (url.protocol !== 'mqtt:' && url.protocol !== 'mqtts:') return 'must use mqtt or mqtts';
  if (url.username || url.password) return 'must not carry credentials (give username and password)';
  if ((url.pathname && url.pathname !== '/') || url.search || url.hash) return 'must be scheme://host[:port] only';
  if (!url.hostname) return 'must name a host';
  const tls = url.protocol === 'mqtts:';
  const port = url.port ? Number(url.port) : tls ? 8883 : 1883;
  if (port < 1 || port > 65_535) return 'port must be from 1 to 65535';
  const service = REFUSED_BROKER_PORTS.get(port);
  if (service && !allowedPorts.includes(port)) return `port ${port} is ${service}'s, not MQTT's (MQTT_ALLOWED_PORTS may allow it)`;
  return { tls, host: url.hostname.replace(/^\[|\]$/g, ''), port, href: url.href };
}

/**
 * Why the broker may not be connected to, or null: a broker URL parseBrokerUrl takes, and the same
 * rules as any outbound address (no loopback, link-local or private address unless
 * OUTBOUND_ALLOW_PRIVATE), checked again at each connection.
 */
export async function brokerUrlProblem(raw: string, allowPrivate: boolean, allowedPorts: readonly number[] = []): Promise<string | null> {
  const broker = parseBrokerUrl(raw, allowedPorts);
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
