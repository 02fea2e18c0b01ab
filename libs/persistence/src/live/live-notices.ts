/**
 * What changed, as small notices: the instance that serves a live feed loads the rows itself.
 * PostgreSQL refuses NOTIFY payloads of 8,000 bytes or more, and a table row (payload, decoded
 * members, network position) can be a good part of that; a notice is a few dozen bytes whatever
 * the row, costs nothing when no instance has a client for the device, and the rows an instance
 * loads are exactly what its clients may see (read after the commit, mapped by the api).
 */
export type LiveNotice =
  /** Uplinks of the device up to and including uid `newest` are committed. */
  | { kind: 'uplinks'; device: number; newest: string }
  /** The command's status changed (or it was created). */
  | { kind: 'command'; device: number; command: number }
  /** An alert of the device was raised or cleared. */
  | { kind: 'alert'; device: number; alert: string }
  /** An image of the device became visible, changed status or annotations, or was deleted. */
  | { kind: 'image'; device: number; image: number }
  /**
   * A credential of the account ended (token deleted, logout, password changed or reset, account
   * deleted): every instance re-validates the credentials its open streams of the account were
   * opened with, and ends the streams whose credential no longer holds.
   */
  | { kind: 'credentials'; account: number }
  /**
   * The integration was deleted or disabled: every worker abandons its attempts to it in flight, so
   * that they stop holding the worker's lanes (and the account's share of them) at once.
   */
  | { kind: 'integration'; integration: number };

/** What a listener hears: notices, and `resync` after the transport reconnected (notices may have been lost). */
export type LiveSignal = LiveNotice | { kind: 'resync' };

/** Leaves room below PostgreSQL's 8,000-byte payload limit. */
const MAX_MESSAGE_BYTES = 7_000;

type Wire = ['u', number, string] | ['c', number, number] | ['l', number, string] | ['i', number, number] | ['a', number] | ['n', number];
/**
 * The publisher's own mark after its notices (publish with `heard`): when its subscription hears
 * it, the message has reached every subscriber. Not a notice: listeners never see it, and an
 * instance that does not know it drops it (fromWire).
 */
const ECHO = 'e';

function toWire(n: LiveNotice): Wire {
  switch (n.kind) {
    case 'uplinks':
      return ['u', n.device, n.newest];
    case 'command':
      return ['c', n.device, n.command];
    case 'alert':
      return ['l', n.device, n.alert];
    case 'image':
      return ['i', n.device, n.image];
    case 'credentials':
      return ['a', n.account];
    case 'integration':
      return ['n', n.integration];
  }
}

function fromWire(w: unknown): LiveNotice | null {
  if (!Array.isArray(w) || typeof w[1] !== 'number') return null;
  if (w[0] === 'u' && typeof w[2] === 'string' && /^\d{1,19}$/.test(w[2])) return { kind: 'uplinks', device: w[1], newest: w[2] };
  if (w[0] === 'c' && typeof w[2] === 'number') return { kind: 'command', device: w[1], command: w[2] };
  if (w[0] === 'l' && typeof w[2] === 'string' && /^\d{1,19}$/.test(w[2])) return { kind: 'alert', device: w[1], alert: w[2] };
  if (w[0] === 'i' && typeof w[2] === 'number') return { kind: 'image', device: w[1], image: w[2] };
  if (w[0] === 'a' && w.length === 2) return { kind: 'credentials', account: w[1] };
  if (w[0] === 'n' && w.length === 2) return { kind: 'integration', integration: w[1] };
  return null;
}

/** Packs notices into as few messages as fit under the payload limit (a JSON array each). */
export function packLiveNotices(notices: LiveNotice[], echo: string | null = null): string[] {
  const messages: string[] = [];
  let parts: string[] = [];
  let size = 2;
  for (const notice of notices) {
    const part = JSON.stringify(toWire(notice));
    if (parts.length > 0 && size + part.length + 1 > MAX_MESSAGE_BYTES) {
      messages.push(`[${parts.join(',')}]`);
      parts = [];
      size = 2;
    }
    parts.push(part);
    size += part.length + 1;
  }
  // The mark goes in the last message: hearing it means every message before it was delivered.
  if (echo !== null) parts.push(JSON.stringify([ECHO, echo]));
  if (parts.length > 0) messages.push(`[${parts.join(',')}]`);
  return messages;
}

/** The publisher's mark in a message, if it carries one. */
export function liveEchoOf(message: string): string | null {
  const m = /\["e","([0-9a-f]{1,64})"\]\]$/.exec(message);
  return m?.[1] ?? null;
}

export function unpackLiveNotices(message: string): LiveNotice[] {
  try {
    const list: unknown = JSON.parse(message);
    return Array.isArray(list) ? list.map(fromWire).filter((n): n is LiveNotice => n !== null) : [];
  } catch {
    return [];
  }
}
