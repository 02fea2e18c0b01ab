import {
  CHIRPSTACK,
  DEFAULT_HTTP_JSON_MAPPING,
  HTTP_JSON,
  type HttpJsonMappingWire,
  INGEST_NETWORKS,
  ingestRouteOf,
  type Network,
  parsePath,
  type PathSegment,
  REST,
  THE_THINGS_STACK,
} from '@dts/domain';
import type { Messages } from '../i18n/messages';

/*
 * What a network or a script must be told to send uplinks here, built from the registry the api's
 * ingest routes are made from (libs/domain networks/registry.ts), so that what the console shows is
 * the route the service serves. The browser spec sends each snippet as shown.
 */

/** Shown in place of the key until one is made on the page: the person pastes their own. */
export const KEY_PLACEHOLDER = '<your ingest key>';

/** The header every set-up sends the key in (docs/api.md §3: a token in `Authorization: Bearer`). */
export const KEY_HEADER = 'Authorization';
export const keyHeaderValue = (key: string | null) => `Bearer ${key ?? KEY_PLACEHOLDER}`;

/** The full URL of a network kind's ingest route on this service; `uid` for a route by uid (HTTP JSON). */
export function ingestUrl(origin: string, network: Network, uid?: number): string {
  const entry = INGEST_NETWORKS.find((n) => n.kind === network.kind);
  if (!entry) throw new Error(`the network ${network.kind} takes no uplinks`);
  const { path } = ingestRouteOf(entry.ingest);
  return `${origin}${path.replace('{uid}', String(uid ?? network.uid))}`;
}

/** A small Cayenne LPP payload (temperature 22.5 °C on channel 1): decodes with the LPP decoder, stored raw with any other. */
export const EXAMPLE_PAYLOAD_HEX = '016700E1';

/** A REST item for the device (docs/api.md §5: the service's own strict format). */
export function restBody(eui: string): { devEUI: string; port: number; payload_hex: string } {
  return { devEUI: eui, port: 1, payload_hex: EXAMPLE_PAYLOAD_HEX };
}

const shellQuote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

/** A curl command that posts `body` to `url` with the key; one option a line, for reading. */
export function curlCommand(url: string, key: string | null, body: unknown): string {
  return [
    `curl -X POST ${shellQuote(url)}`,
    `  -H ${shellQuote(`${KEY_HEADER}: ${keyHeaderValue(key)}`)}`,
    `  -H 'Content-Type: application/json'`,
    `  --data ${shellQuote(JSON.stringify(body))}`,
  ].join(' \\\n');
}

/** What a curl command shown by curlCommand sends: for the browser spec, which sends it as shown. */
export function parseCurlCommand(command: string): { url: string; headers: Record<string, string>; body: string } {
  const quoted = [...command.matchAll(/'((?:[^']|'\\'')*)'/g)].map((m) => m[1]!.replace(/'\\''/g, `'`));
  const [url, ...rest] = quoted;
  const body = rest.pop();
  if (!url || body === undefined) throw new Error('not a command of curlCommand');
  const headers = Object.fromEntries(
    rest.map((h) => {
      const at = h.indexOf(':');
      return [h.slice(0, at), h.slice(at + 1).trim()];
    }),
  );
  return { url, headers, body };
}

/** How many uplinks one REST post may carry (docs/api.md §5). */
export const REST_MAX_ITEMS = 1000;

/**
 * The Things Stack's message types the service reads, as its webhook form names them (docs/api.md §5),
 * each with why: the key of its reason under `networks.tts.why` in the message catalogue.
 */
export const TTS_MESSAGE_TYPES = [
  { name: 'Uplink message', why: 'uplink' },
  { name: 'Join accept', why: 'join' },
  { name: 'Downlink ack', why: 'ack' },
  { name: 'Downlink nack', why: 'nack' },
  { name: 'Downlink sent', why: 'sent' },
  { name: 'Downlink failed', why: 'failed' },
  { name: 'Location solved', why: 'location' },
] as const satisfies readonly { name: string; why: keyof Messages['networks']['tts']['why'] }[];

/** The Things Stack webhook template's fields (Integrations → Webhooks → Custom webhook). */
export function ttsWebhook(origin: string, key: string | null) {
  return { format: 'JSON', baseUrl: ingestUrl(origin, THE_THINGS_STACK), header: KEY_HEADER, headerValue: keyHeaderValue(key) };
}

/** ChirpStack v4's HTTP integration (Applications → Integrations → HTTP); it adds `?event=…` itself. */
export function chirpstackIntegration(origin: string, key: string | null) {
  return { endpoint: ingestUrl(origin, CHIRPSTACK), encodings: 'JSON or Protobuf', header: KEY_HEADER, headerValue: keyHeaderValue(key) };
}

/** The REST route's URL. */
export const restUrl = (origin: string) => ingestUrl(origin, REST);

/** The HTTP JSON route of an account's network (or the global one, uid 5). */
export const httpJsonUrl = (origin: string, uid: number) => ingestUrl(origin, HTTP_JSON, uid);

function setAt(root: Record<string, unknown>, segments: readonly PathSegment[], value: unknown): void {
  let at: Record<string | number, unknown> = root;
  segments.forEach((segment, i) => {
    if (i === segments.length - 1) {
      at[segment] = value;
      return;
    }
    const next = segments[i + 1]!;
    const index = typeof next === 'number' || /^\d{1,6}$/.test(String(next));
    at[segment] ??= index ? [] : {};
    at = at[segment] as Record<string | number, unknown>;
  });
}

/**
 * A body an HTTP JSON network with this mapping reads as one uplink of the device (port 1, the
 * example payload, a signal where the mapping has one), built at the mapping's own paths.
 */
export function httpJsonBody(mapping: HttpJsonMappingWire | null, eui: string): unknown {
  const m = mapping ?? DEFAULT_HTTP_JSON_MAPPING;
  const payload = m.payload_encoding === 'base64' ? hexToBase64(EXAMPLE_PAYLOAD_HEX) : EXAMPLE_PAYLOAD_HEX;
  const item: Record<string, unknown> = {};
  const values: [string | null, unknown][] = [
    [m.devEUI, eui],
    [m.port, 1],
    [m.payload, payload],
    [m.rssi, -70],
    [m.snr, 8],
  ];
  for (const [path, value] of values) {
    if (path === null) continue;
    const segments = parsePath(path);
    if (typeof segments !== 'string') setAt(item, segments, value);
  }
  if (m.items === null) return item;
  const body: Record<string, unknown> = {};
  const segments = parsePath(m.items);
  if (typeof segments === 'string') return item;
  setAt(body, segments, [item]);
  return body;
}

export function hexToBase64(hex: string): string {
  const bytes = hex.match(/../g)?.map((b) => parseInt(b, 16)) ?? [];
  return btoa(String.fromCharCode(...bytes));
}
