import type { HttpJsonMappingWire } from '../../wire/network-config';

/**
 * Where an HTTP JSON network's items keep each member (docs/api.md §16). A path is a dot path with
 * array indices (`data.rx[0].rssi`) or a JSON Pointer (`/data/rx/0/rssi`, RFC 6901).
 */
export type HttpJsonMapping = HttpJsonMappingWire;

export const DEFAULT_HTTP_JSON_MAPPING: Readonly<HttpJsonMapping> = Object.freeze({
  devEUI: 'devEUI',
  port: 'port',
  payload: 'payload',
  payload_encoding: 'hex',
  time: 'time',
  rssi: 'rssi',
  snr: 'snr',
  message_id: 'id',
  fcnt: 'fcnt',
  items: null,
});

const REQUIRED = ['devEUI', 'port', 'payload'] as const;
const OPTIONAL = ['time', 'rssi', 'snr', 'message_id', 'fcnt', 'items'] as const;
const MAX_PATH = 200;
const MAX_SEGMENTS = 16;
/** Read as own members only; these would reach an object's machinery rather than its data. */
const FORBIDDEN = new Set(['__proto__', 'prototype', 'constructor']);

export type PathSegment = string | number;

/** A dot path's segments (`rx[0].rssi` → rx, 0, rssi), or null when it is not one. */
function dotSegments(path: string): PathSegment[] | null {
  const out: PathSegment[] = [];
  for (const part of path.split('.')) {
    const m = /^([^[\]]*)((?:\[\d{1,6}\])*)$/.exec(part);
    if (!m || (!m[1] && !m[2])) return null;
    if (m[1]) out.push(m[1]);
    for (const index of (m[2] ?? '').matchAll(/\[(\d+)\]/g)) out.push(Number(index[1]));
  }
  return out;
}

/** The segments of a path, or why it is not one. */
export function parsePath(path: string): PathSegment[] | string {
  if (path.length === 0 || path.length > MAX_PATH) return `must be 1 to ${MAX_PATH} characters`;
  const segments = path.startsWith('/')
    ? path
        .slice(1)
        .split('/')
        .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    : dotSegments(path);
  if (segments === null || segments.includes('')) return 'is not a dot path (a.b[0].c) or a JSON Pointer (/a/b/0/c)';
  if (segments.length > MAX_SEGMENTS) return `may have at most ${MAX_SEGMENTS} segments`;
  const forbidden = segments.find((s) => typeof s === 'string' && FORBIDDEN.has(s));
  return forbidden === undefined ? segments : `may not name ${forbidden}`;
}

/** The value at a path, reading own members only; undefined where the path leads nowhere. */
export function valueAt(root: unknown, segments: readonly PathSegment[]): unknown {
  let at: unknown = root;
  for (const s of segments) {
    if (Array.isArray(at)) {
      const index = typeof s === 'number' ? s : /^\d{1,6}$/.test(s) ? Number(s) : -1;
      at = index >= 0 ? at[index] : undefined;
    } else if (typeof at === 'object' && at !== null && Object.prototype.hasOwnProperty.call(at, s)) {
      at = (at as Record<string, unknown>)[String(s)];
    } else return undefined;
  }
  return at;
}

/** A mapping as an account gives it, checked member by member; defaults for what it leaves out. */
export function readHttpJsonMapping(input: unknown): HttpJsonMapping | { field: string; message: string } {
  if (input === undefined || input === null) return { ...DEFAULT_HTTP_JSON_MAPPING };
  if (typeof input !== 'object' || Array.isArray(input)) return { field: 'mapping', message: 'mapping must be an object' };
  const given = input as Record<string, unknown>;
  const known = new Set<string>([...REQUIRED, ...OPTIONAL, 'payload_encoding']);
  for (const key of Object.keys(given)) if (!known.has(key)) return { field: `mapping.${key}`, message: `mapping.${key} is not a mapping member` };
  const mapping: HttpJsonMapping = { ...DEFAULT_HTTP_JSON_MAPPING };
  for (const key of [...REQUIRED, ...OPTIONAL]) {
    const value = given[key];
    if (value === undefined) continue;
    if (value === null && (OPTIONAL as readonly string[]).includes(key)) {
      (mapping as unknown as Record<string, string | null>)[key] = null;
      continue;
    }
    if (typeof value !== 'string') return { field: `mapping.${key}`, message: `mapping.${key} must be a path` };
    const problem = parsePath(value);
    if (typeof problem === 'string') return { field: `mapping.${key}`, message: `mapping.${key} ${problem}` };
    (mapping as unknown as Record<string, string | null>)[key] = value;
  }
  const encoding = given.payload_encoding;
  if (encoding !== undefined) {
    if (encoding !== 'hex' && encoding !== 'base64') return { field: 'mapping.payload_encoding', message: 'mapping.payload_encoding must be hex or base64' };
    mapping.payload_encoding = encoding;
  }
  return mapping;
}
