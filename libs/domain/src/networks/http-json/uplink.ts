import { payloadFromBase64, payloadFromHex, checkTime, eui, optInt, optNumber, time } from '../read';
import { fail, type NormalizedUplink } from '../uplink';
import { type HttpJsonMapping, parsePath, type PathSegment, valueAt } from './mapping';

type PathKey = Exclude<keyof HttpJsonMapping, 'payload_encoding'>;
/** A mapping's paths, parsed once per delivery. */
export type CompiledMapping = Record<PathKey, PathSegment[] | null>;

export function compileMapping(m: HttpJsonMapping): CompiledMapping {
  const path = (p: string | null): PathSegment[] | null => {
    if (p === null) return null;
    const segments = parsePath(p);
    // Mappings are checked when an account stores them (readHttpJsonMapping): a bad one here is a bug.
    if (typeof segments === 'string') throw new Error(`stored mapping path "${p}" ${segments}`);
    return segments;
  };
  return {
    devEUI: path(m.devEUI),
    port: path(m.port),
    payload: path(m.payload),
    time: path(m.time),
    rssi: path(m.rssi),
    snr: path(m.snr),
    message_id: path(m.message_id),
    fcnt: path(m.fcnt),
    items: path(m.items),
  };
}

/**
 * One item of an HTTP JSON network, read through its mapping. A member is refused naming the path
 * the mapping gives it, so that the sender learns which of its own members was wrong.
 */
export function parseHttpJsonUplink(item: unknown, mapping: HttpJsonMapping, compiled: CompiledMapping, now: Date): NormalizedUplink {
  const at = (key: PathKey) => {
    const path = compiled[key];
    return path === null ? undefined : valueAt(item, path);
  };
  const name = (key: PathKey) => String(mapping[key]);
  const devEUI = eui(at('devEUI'), name('devEUI'));
  const port = optInt(at('port'), name('port'), 0, 255);
  if (port === null) fail(name('port'), 'is required');
  const raw = at('payload');
  if (raw === undefined || raw === null) fail(name('payload'), 'is required');
  const payload = mapping.payload_encoding === 'hex' ? payloadFromHex(raw, name('payload')) : payloadFromBase64(raw, name('payload'));
  const when = at('time');
  // A number is unix seconds; text is an RFC 3339 time.
  const receivedAt =
    typeof when === 'number' ? checkTime(new Date(when * 1000), name('time'), now) : when === undefined || when === null ? now : time(when, name('time'), now);
  const fcnt = optInt(at('fcnt'), name('fcnt'), 0, 2 ** 32 - 1);
  const id = at('message_id');
  if (id !== undefined && id !== null && ((typeof id !== 'string' && typeof id !== 'number') || String(id).length === 0 || String(id).length > 100))
    fail(name('message_id'), 'must be a string or number of 1 to 100 characters');
  return {
    devEUI,
    port,
    fcnt,
    payload,
    receivedAt,
    // The sender's id when it has one; else, as for REST, the same frame counter at the same time.
    messageId:
      id !== undefined && id !== null ? `id:${id}` : fcnt !== null && when !== undefined && when !== null ? `fcnt:${fcnt}@${receivedAt.toISOString()}` : null,
    sf: null,
    rssi: optNumber(at('rssi'), name('rssi'), -200, 50),
    snr: optNumber(at('snr'), name('snr'), -50, 50),
    geoloc: null,
    gateways: [],
    simulated: false,
    networkName: null,
  };
}
