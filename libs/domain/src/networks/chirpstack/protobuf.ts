import { bytesToBase64 } from '../../payload';
import { DeliveryError } from '../network';

/**
 * ChirpStack v4's Protobuf encoding of its integration events (`marshaler: protobuf`, sent as
 * `application/octet-stream`), turned into the Protobuf JSON mapping its JSON encoding posts, so
 * that one reader serves both. Hand-written for the few fields the service reads (numbers from
 * chirpstack/chirpstack api/proto/integration/integration.proto, gw/gw.proto, common/common.proto):
 * the wire format is five rules, and a library would bring the .proto files and a code generator
 * for them. Fields not listed are skipped, as any Protobuf reader skips fields it does not know.
 */

type Scalar = 'string' | 'bytes' | 'uint32' | 'int32' | 'int64' | 'bool' | 'float' | 'double' | 'timestamp' | 'stringMap';
type Kind = Scalar | { enum: readonly string[] } | { message: Schema };
/** Field number → [JSON name, kind, repeated?]. */
type Schema = Readonly<Record<number, readonly [string, Kind, 'repeated'?]>>;

const DEVICE_INFO: Schema = { 7: ['deviceName', 'string'], 8: ['devEui', 'string'] };
/** common.Location */
const LOCATION: Schema = { 1: ['latitude', 'double'], 2: ['longitude', 'double'], 3: ['altitude', 'double'], 5: ['accuracy', 'float'] };
/** gw.UplinkRxInfo */
const RX_INFO: Schema = { 1: ['gatewayId', 'string'], 6: ['rssi', 'int32'], 7: ['snr', 'float'], 12: ['location', { message: LOCATION }] };
/** gw.UplinkTxInfo → Modulation → LoraModulationInfo */
const TX_INFO: Schema = {
  1: ['frequency', 'uint32'],
  2: ['modulation', { message: { 3: ['lora', { message: { 1: ['bandwidth', 'uint32'], 2: ['spreadingFactor', 'uint32'] } }] } }],
};
/** The members every event but `log` opens with. */
const COMMON: Schema = { 1: ['deduplicationId', 'string'], 2: ['time', 'timestamp'], 3: ['deviceInfo', { message: DEVICE_INFO }] };

const LOG_LEVELS = ['INFO', 'WARNING', 'ERROR'];
const LOG_CODES = [
  'UNKNOWN',
  'DOWNLINK_PAYLOAD_SIZE',
  'UPLINK_CODEC',
  'DOWNLINK_CODEC',
  'OTAA',
  'UPLINK_F_CNT_RESET',
  'UPLINK_MIC',
  'UPLINK_F_CNT_RETRANSMISSION',
  'DOWNLINK_GATEWAY',
  'RELAY_NEW_END_DEVICE',
  'F_CNT_DOWN',
  'EXPIRED',
];

/** The message of each event ChirpStack posts in Protobuf (`integration` has none: JSON only, and no longer sent). */
export const CHIRPSTACK_PROTOBUF_EVENTS: Readonly<Record<string, Schema>> = {
  up: {
    ...COMMON,
    4: ['devAddr', 'string'],
    7: ['fCnt', 'uint32'],
    8: ['fPort', 'uint32'],
    10: ['data', 'bytes'],
    12: ['rxInfo', { message: RX_INFO }, 'repeated'],
    13: ['txInfo', { message: TX_INFO }],
  },
  join: { ...COMMON, 4: ['devAddr', 'string'] },
  ack: { ...COMMON, 4: ['queueItemId', 'string'], 5: ['acknowledged', 'bool'], 6: ['fCntDown', 'uint32'] },
  txack: {
    1: ['downlinkId', 'uint32'],
    2: ['time', 'timestamp'],
    3: ['deviceInfo', { message: DEVICE_INFO }],
    4: ['queueItemId', 'string'],
    5: ['fCntDown', 'uint32'],
    6: ['gatewayId', 'string'],
  },
  log: {
    1: ['time', 'timestamp'],
    2: ['deviceInfo', { message: DEVICE_INFO }],
    3: ['level', { enum: LOG_LEVELS }],
    4: ['code', { enum: LOG_CODES }],
    5: ['description', 'string'],
    6: ['context', 'stringMap'],
  },
  status: {
    ...COMMON,
    5: ['margin', 'int32'],
    6: ['externalPowerSource', 'bool'],
    7: ['batteryLevelUnavailable', 'bool'],
    8: ['batteryLevel', 'float'],
  },
  location: { ...COMMON, 4: ['location', { message: LOCATION }] },
};

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** A malformed encoding: the whole request is refused. */
class Malformed extends Error {}

class Reader {
  pos = 0;
  constructor(
    readonly bytes: Uint8Array,
    readonly end = bytes.length,
  ) {}

  varint(): bigint {
    let value = 0n;
    for (let shift = 0n; shift < 70n; shift += 7n) {
      if (this.pos >= this.end) throw new Malformed(`truncated at byte ${this.pos}`);
      const b = this.bytes[this.pos++]!;
      value |= BigInt(b & 0x7f) << shift;
      if (b < 0x80) return BigInt.asUintN(64, value);
    }
    throw new Malformed(`a varint longer than 10 bytes at byte ${this.pos}`);
  }

  take(n: number): Uint8Array {
    if (n < 0 || this.pos + n > this.end) throw new Malformed(`truncated at byte ${this.pos}`);
    const out = this.bytes.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }

  /** The next field's number and wire type, or null at the end. */
  tag(): { field: number; wire: number } | null {
    if (this.pos >= this.end) return null;
    const tag = this.varint();
    const field = Number(tag >> 3n);
    if (field === 0 || field > 536_870_911) throw new Malformed(`field number ${field} at byte ${this.pos}`);
    return { field, wire: Number(tag & 7n) };
  }

  /** The field's raw value: a varint, or the bytes of a fixed-size or length-delimited one. */
  value(wire: number): bigint | Uint8Array {
    if (wire === 0) return this.varint();
    if (wire === 1) return this.take(8);
    if (wire === 5) return this.take(4);
    if (wire === 2) {
      const length = this.varint();
      if (length > BigInt(this.end - this.pos)) throw new Malformed(`a length past the end at byte ${this.pos}`);
      return this.take(Number(length));
    }
    throw new Malformed(`wire type ${wire} (groups are not used by ChirpStack) at byte ${this.pos}`);
  }
}

const view = (b: Uint8Array) => new DataView(b.buffer, b.byteOffset, b.byteLength);
/** A float32 read back as the shortest decimal it stands for (88.3, not 88.30000305175781), as the JSON mapping prints it. */
const shortFloat = (f: number) => Number(f.toPrecision(7));

function decodeMessage(bytes: Uint8Array, schema: Schema, path: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const r = new Reader(bytes);
  for (let tag = r.tag(); tag !== null; tag = r.tag()) {
    const raw = r.value(tag.wire);
    const spec = schema[tag.field];
    if (!spec) continue;
    const [name, kind, repeated] = spec;
    const field = path ? `${path}.${name}` : name;
    const value = scalar(raw, kind, field);
    if (kind === 'stringMap') {
      const [k, v] = value as [string, string];
      out[name] = { ...(out[name] as Record<string, string> | undefined), [k]: v };
    } else if (repeated) {
      const list = (out[name] as unknown[] | undefined) ?? [];
      list.push(value);
      out[name] = list;
    } else out[name] = value;
  }
  return out;
}

function expect<T extends bigint | Uint8Array>(raw: bigint | Uint8Array, isBytes: boolean, field: string, length?: number): T {
  const ok = isBytes ? raw instanceof Uint8Array && (length === undefined || raw.length === length) : typeof raw === 'bigint';
  if (!ok) throw new Malformed(`${field} has the wrong wire type`);
  return raw as T;
}

function text(raw: bigint | Uint8Array, field: string): string {
  let s: string;
  try {
    s = utf8.decode(expect<Uint8Array>(raw, true, field));
  } catch (error) {
    if (error instanceof Malformed) throw error;
    throw new Malformed(`${field} is not UTF-8`);
  }
  // PostgreSQL text cannot hold U+0000; the JSON route refuses it too (docs/api.md §11).
  if (s.includes('\u0000')) throw new Malformed(`${field} contains a NUL character`);
  return s;
}

function scalar(raw: bigint | Uint8Array, kind: Kind, field: string): unknown {
  if (typeof kind === 'object' && 'enum' in kind) {
    const n = Number(BigInt.asIntN(32, expect<bigint>(raw, false, field)));
    return kind.enum[n] ?? n;
  }
  if (typeof kind === 'object') return decodeMessage(expect<Uint8Array>(raw, true, field), kind.message, field);
  switch (kind) {
    case 'string':
      return text(raw, field);
    case 'bytes':
      return bytesToBase64(expect<Uint8Array>(raw, true, field));
    case 'uint32':
      return Number(BigInt.asUintN(32, expect<bigint>(raw, false, field)));
    case 'int32':
      return Number(BigInt.asIntN(32, expect<bigint>(raw, false, field)));
    case 'int64':
      return Number(BigInt.asIntN(64, expect<bigint>(raw, false, field)));
    case 'bool':
      return expect<bigint>(raw, false, field) !== 0n;
    case 'float':
      return shortFloat(view(expect<Uint8Array>(raw, true, field, 4)).getFloat32(0, true));
    case 'double':
      return view(expect<Uint8Array>(raw, true, field, 8)).getFloat64(0, true);
    case 'timestamp': {
      const t = decodeMessage(expect<Uint8Array>(raw, true, field), { 1: ['seconds', 'int64'], 2: ['nanos', 'int32'] }, field);
      const seconds = Number(t.seconds ?? 0);
      const ms = seconds * 1000 + Math.floor(Number(t.nanos ?? 0) / 1e6);
      const date = new Date(ms);
      if (!Number.isFinite(date.getTime())) throw new Malformed(`${field} is not a time`);
      return date.toISOString();
    }
    case 'stringMap': {
      const entry = decodeMessage(expect<Uint8Array>(raw, true, field), { 1: ['key', 'string'], 2: ['value', 'string'] }, field);
      return [entry.key ?? '', entry.value ?? ''];
    }
  }
}

/**
 * One event's Protobuf body as its JSON mapping (camelCase members, bytes in Base64, enums by name,
 * times in RFC 3339, members at their default left out). A malformed body refuses the request.
 */
export function chirpstackProtobufToJson(event: string, bytes: Uint8Array): Record<string, unknown> {
  const schema = CHIRPSTACK_PROTOBUF_EVENTS[event];
  if (!schema) throw new DeliveryError('event', `event ${event} has no Protobuf form; send it as JSON`);
  try {
    return decodeMessage(bytes, schema, '');
  } catch (error) {
    if (error instanceof Malformed) throw new DeliveryError('body', `is not a ChirpStack Protobuf ${event} event: ${error.message}`);
    throw error;
  }
}
