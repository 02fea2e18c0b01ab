import ipaddr from 'ipaddr.js';
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';

/**
 * IPv6 forms that carry an IPv4 address a translator or tunnel would deliver to: each is judged by
 * the address it carries, as if that had been given. `bytes` are the carried address' offsets in
 * the 16 bytes of the IPv6 address.
 */
const IPV4_CARRIERS: { prefix: [ipaddr.IPv6, number]; bytes: [number, number, number, number] }[] = [
  { prefix: ipaddr.IPv6.parseCIDR('::ffff:0:0/96'), bytes: [12, 13, 14, 15] }, // IPv4-mapped
  { prefix: ipaddr.IPv6.parseCIDR('::/96'), bytes: [12, 13, 14, 15] }, // IPv4-compatible (deprecated, still routed by some stacks)
  { prefix: ipaddr.IPv6.parseCIDR('64:ff9b::/96'), bytes: [12, 13, 14, 15] }, // NAT64 well-known prefix (RFC 6052)
  { prefix: ipaddr.IPv6.parseCIDR('2002::/16'), bytes: [2, 3, 4, 5] }, // 6to4
];

/**
 * IPv6 ranges refused outright even where the carried IPv4 address would be public: local-use
 * NAT64 (RFC 8215: its prefix length, and so where the IPv4 address sits, is the operator's choice),
 * Teredo (the client address is obfuscated), site-local (fec0::/10, deprecated but still routed
 * inside some networks), and every special-purpose range ipaddr.js knows (documentation,
 * discard, ORCHID, segment routing…).
 */
const LOCAL_NAT64 = ipaddr.IPv6.parseCIDR('64:ff9b:1::/48');

/** The IPv4 address an IPv6 address carries (see IPV4_CARRIERS), or null. */
function carriedIpv4(address: ipaddr.IPv6): ipaddr.IPv4 | null {
  for (const carrier of IPV4_CARRIERS) {
    if (!address.match(carrier.prefix)) continue;
    const bytes = address.toByteArray();
    return new ipaddr.IPv4(carrier.bytes.map((i) => bytes[i] ?? 0));
  }
  return null;
}

/**
 * Whether a network adapter must never call this address unless configuration allows it
 * (OUTBOUND_ALLOW_PRIVATE): anything but public unicast — loopback, link-local (cloud metadata at
 * 169.254.169.254), private, carrier-grade NAT, unspecified, broadcast, multicast, documentation,
 * benchmarking and reserved ranges, in IPv4 and IPv6 — judged by ipaddr.js's range tables, and an
 * IPv6 address that carries an IPv4 one judged by that one. Not an IP address at all: forbidden.
 */
export function isForbiddenAddress(address: string): boolean {
  if (isIP(address) === 0 || !ipaddr.isValid(address)) return true;
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv4') return parsed.range() !== 'unicast';
  const v6 = parsed as ipaddr.IPv6;
  if (v6.match(LOCAL_NAT64)) return true;
  const carried = carriedIpv4(v6);
  // `::` and `::1` sit inside ::/96 but are IPv6's own unspecified and loopback addresses.
  if (carried && v6.range() !== 'unspecified' && v6.range() !== 'loopback') return carried.range() !== 'unicast';
  return v6.range() !== 'unicast';
}

/** C0 controls (TAB, CR, LF among them), DEL and C1 controls. */
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * The URL as every outbound call reads it (the WHATWG parser's `new URL`), or why it is refused.
 * Text the parser silently drops or reinterprets is refused rather than stored as given: it drops
 * TAB, CR and LF anywhere, and reads `\` as `/` in http(s) URLs, so `http://a.example\@127.0.0.1/`
 * calls `a.example` while other parsers (and people) read host 127.0.0.1. What is stored and shown
 * is then exactly what is called.
 */
export function parsedOutboundUrl(raw: string): URL | string {
  if (CONTROL_CHARACTERS.test(raw)) return 'must not contain control characters (TAB, CR, LF…)';
  if (raw.includes('\\')) return 'must not contain "\\" (URL parsers disagree on what it means)';
  try {
    return new URL(raw);
  } catch {
    return 'is not a URL';
  }
}

/**
 * Why the URL may not be called, or null: no control character or `\` (parsedOutboundUrl), only
 * http(s), no credentials in it, and a host that resolves to public addresses only (checked again
 * at each call, against DNS rebinding).
 */
export async function outboundUrlProblem(raw: string, allowPrivate: boolean): Promise<string | null> {
  const url = parsedOutboundUrl(raw);
  if (typeof url === 'string') return url;
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'must use http or https';
  if (url.username || url.password) return 'must not carry credentials';
  if (allowPrivate) return null;
  // The URL parser has already turned decimal, hex and short forms (http://2130706433/) into dotted quads.
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);
  } catch {
    return `host ${host} does not resolve`;
  }
  if (addresses.length === 0 || addresses.some(isForbiddenAddress)) return `host ${host} resolves to a loopback, link-local or private address`;
  return null;
}
