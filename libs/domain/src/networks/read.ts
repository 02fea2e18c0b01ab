import { normalizeEui, type Eui } from '../eui';
import { base64ToBytes, hexToBytes, MAX_LORAWAN_PAYLOAD_BYTES } from '../payload';
import { EARLIEST_UPLINK, fail, ItemError, type ParsedItem, type NormalizedUplink } from './uplink';

/** Readers for untrusted webhook bodies: each names the member it refuses. */
export type Obj = Record<string, unknown>;

export function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function obj(v: unknown, field: string): Obj {
  if (v === undefined || v === null) return {};
  if (!isObj(v)) fail(field, 'must be an object');
  return v;
}

export function optNumber(v: unknown, field: string, min = -Infinity, max = Infinity): number | null {
  if (v === undefined || v === null) return null;
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isFinite(n)) fail(field, 'must be a number');
  if (n < min || n > max) fail(field, `must be within ${min}..${max}`);
  return n;
}

export function optInt(v: unknown, field: string, min: number, max: number): number | null {
  const n = optNumber(v, field, min, max);
  if (n !== null && !Number.isInteger(n)) fail(field, 'must be an integer');
  return n;
}

export function optString(v: unknown, field: string, maxLength = 200): string | null {
  if (v === undefined || v === null) return null;
  if (typeof v !== 'string') fail(field, 'must be a string');
  if (v.length > maxLength) fail(field, `must be at most ${maxLength} characters`);
  return v;
}

export function eui(v: unknown, field: string): Eui {
  const e = normalizeEui(v);
  if (!e) fail(field, 'must be a 16-character hexadecimal EUI');
  return e;
}

export function payloadFromBase64(v: unknown, field: string): Uint8Array {
  if (v === undefined || v === null || v === '') return new Uint8Array();
  const bytes = typeof v === 'string' ? base64ToBytes(v) : null;
  if (!bytes) fail(field, 'must be Base64');
  return checkSize(bytes, field);
}

export function payloadFromHex(v: unknown, field: string): Uint8Array {
  const bytes = typeof v === 'string' ? hexToBytes(v) : null;
  if (!bytes) fail(field, 'must be hexadecimal');
  return checkSize(bytes, field);
}

function checkSize(bytes: Uint8Array, field: string): Uint8Array {
  if (bytes.length > MAX_LORAWAN_PAYLOAD_BYTES) fail(field, `is ${bytes.length} bytes; at most ${MAX_LORAWAN_PAYLOAD_BYTES} are accepted`, 'PAYLOAD_TOO_LARGE');
  return bytes;
}

/** An RFC 3339 time (nanoseconds allowed), or now when absent. */
export function time(v: unknown, field: string, now: Date): Date {
  if (v === undefined || v === null) return now;
  if (typeof v !== 'string') fail(field, 'must be an RFC 3339 time');
  const ms = Date.parse(v.replace(/(\.\d{3})\d+/, '$1'));
  if (!Number.isFinite(ms)) fail(field, 'must be an RFC 3339 time');
  return checkTime(new Date(ms), field, now);
}

export function checkTime(date: Date, field: string, now: Date): Date {
  if (date.getTime() < EARLIEST_UPLINK || date.getTime() > now.getTime() + 86_400_000) fail(field, 'is not a plausible time');
  return date;
}

/**
 * Runs one item's parser, turning its refusal into a rejected entry; `euiOf` finds the device EUI
 * in the network's own shape, so that the entry names the device when the body does.
 */
export function parseItem(raw: unknown, parse: (item: unknown) => NormalizedUplink, euiOf: (item: Obj) => unknown): ParsedItem {
  try {
    return { ok: true, uplink: parse(raw) };
  } catch (error) {
    if (!(error instanceof ItemError)) throw error;
    const candidate = isObj(raw) ? euiOf(raw) : null;
    const devEUI = typeof candidate === 'string' ? (normalizeEui(candidate) ?? candidate.slice(0, 32)) : null;
    return { ok: false, devEUI, problem: error.problem };
  }
}
