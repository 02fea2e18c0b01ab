import type * as CommonPb from '@chirpstack/chirpstack-api/common/common_pb';
import type * as GwPb from '@chirpstack/chirpstack-api/gw/gw_pb';
import type * as IntegrationPb from '@chirpstack/chirpstack-api/integration/integration_pb';
import { DeliveryError } from '../network';

/**
 * ChirpStack v4's Protobuf encoding of its integration events (`marshaler: protobuf`, sent as
 * `application/octet-stream`), read with ChirpStack's own generated classes
 * (@chirpstack/chirpstack-api, google-protobuf) and turned into the Protobuf JSON mapping its JSON
 * encoding posts, so that one reader serves both: camelCase members, bytes in Base64, enums by
 * name, Timestamps in RFC 3339, Durations as "1.5s", Structs as JSON, members at their default
 * left out. Every field of the event is mapped, not only those the service reads.
 */

/** The message of each event ChirpStack posts in Protobuf (`integration` has none: JSON only, and no longer sent). */
export const CHIRPSTACK_PROTOBUF_EVENTS = {
  up: 'UplinkEvent',
  join: 'JoinEvent',
  ack: 'AckEvent',
  txack: 'TxAckEvent',
  log: 'LogEvent',
  status: 'StatusEvent',
  location: 'LocationEvent',
} as const satisfies Readonly<Record<string, keyof typeof IntegrationPb>>;

/**
 * Node's `require`: the api and the worker run as CommonJS (tools/build.mjs, @swc/jest). The
 * classes are loaded on the first Protobuf body, not with this library: the browser console
 * imports it too and must not bundle google-protobuf (module names in variables, so that no
 * bundler follows them), and loading them puts a `proto` object on globalThis. Only the message
 * modules are loaded, not the package's gRPC clients (@grpc/grpc-js).
 */
declare const require: (id: string) => unknown;
const MODULES = {
  integration: '@chirpstack/chirpstack-api/integration/integration_pb',
  gw: '@chirpstack/chirpstack-api/gw/gw_pb',
  common: '@chirpstack/chirpstack-api/common/common_pb',
  jspb: 'google-protobuf',
  timestamp: 'google-protobuf/google/protobuf/timestamp_pb',
  duration: 'google-protobuf/google/protobuf/duration_pb',
  struct: 'google-protobuf/google/protobuf/struct_pb',
};

/**
 * The part of google-protobuf's runtime used here: it ships no types, and @types/google-protobuf
 * (an optional peer of @chirpstack/chirpstack-api) is not installed.
 */
interface JspbMessage {
  serializeBinary(): Uint8Array;
}
interface JspbReader {
  /** A length-delimited field's bytes; asserts the wire type. */
  readBytes(): Uint8Array;
  readString(): string;
}
interface JspbMap {
  forEach(callback: (value: unknown, key: unknown) => void): void;
  getLength(): number;
}
interface Jspb {
  Message: abstract new () => JspbMessage;
  BinaryReader: new (bytes?: Uint8Array) => JspbReader;
  Map: abstract new () => JspbMap;
}
/** google.protobuf.Timestamp and Duration. */
interface SecondsAndNanos extends JspbMessage {
  getSeconds(): number;
  getNanos(): number;
}
interface Struct extends JspbMessage {
  toJavaScript(): Record<string, unknown>;
}
type Class<T> = abstract new () => T;

/** What google-protobuf cannot tell at run time: which number fields are enums, which floats are 32-bit. */
interface FieldKinds {
  /** Field name → the generated enum object (name → number). */
  enums?: Readonly<Record<string, object>>;
  float32?: readonly string[];
}

type MessageClass = {
  new (): JspbMessage;
  deserializeBinaryFromReader(message: JspbMessage, reader: JspbReader): JspbMessage;
};

interface Runtime {
  integration: typeof IntegrationPb;
  jspb: Jspb;
  Timestamp: Class<SecondsAndNanos>;
  Duration: Class<SecondsAndNanos>;
  Struct: Class<Struct>;
  StrictReader: new (bytes: Uint8Array) => JspbReader;
  kinds: Map<unknown, FieldKinds>;
}

/** A malformed encoding: the whole request is refused. */
class Malformed extends Error {}

let runtime: Runtime | undefined;

function load(): Runtime {
  if (runtime) return runtime;
  const integration = require(MODULES.integration) as typeof IntegrationPb;
  const gw = require(MODULES.gw) as typeof GwPb;
  const common = require(MODULES.common) as typeof CommonPb;
  const jspb = require(MODULES.jspb) as Jspb;
  const utf8 = new TextDecoder('utf-8', { fatal: true });
  /**
   * google-protobuf decodes a string's invalid UTF-8 into whatever it makes of it; Protobuf (and
   * ChirpStack, in Rust) holds strings to UTF-8, so such a body is refused as before. Map keys
   * and values (tags, metadata, a log's context) are read by google-protobuf's own reader.
   */
  class StrictReader extends jspb.BinaryReader {
    override readString(): string {
      const raw = this.readBytes();
      try {
        return utf8.decode(raw);
      } catch {
        throw new Malformed('a string field is not UTF-8');
      }
    }
  }
  const kinds = new Map<unknown, FieldKinds>([
    [integration.DeviceInfo, { enums: { deviceClassEnabled: common.DeviceClass } }],
    [integration.LogEvent, { enums: { level: integration.LogLevel, code: integration.LogCode } }],
    [integration.StatusEvent, { float32: ['batteryLevel'] }],
    [gw.UplinkRxInfo, { enums: { crcStatus: gw.CRCStatus }, float32: ['snr'] }],
    [gw.LoraModulationInfo, { enums: { codeRate: gw.CodeRate } }],
    [gw.LrFhssModulationInfo, { enums: { codeRate: gw.CodeRate } }],
    [common.Location, { enums: { source: common.LocationSource }, float32: ['accuracy'] }],
  ]);
  runtime = {
    integration,
    jspb,
    Timestamp: (require(MODULES.timestamp) as { Timestamp: Class<SecondsAndNanos> }).Timestamp,
    Duration: (require(MODULES.duration) as { Duration: Class<SecondsAndNanos> }).Duration,
    Struct: (require(MODULES.struct) as { Struct: Class<Struct> }).Struct,
    StrictReader,
    kinds,
  };
  return runtime;
}

/** A float32 as the shortest decimal that reads back as it (88.3, not 88.30000305175781), as the JSON mapping prints it. */
function float32(f: number): number {
  for (let digits = 1; digits < 9; digits++) {
    const shorter = Number(f.toPrecision(digits));
    if (Math.fround(shorter) === f) return shorter;
  }
  return f;
}

/** Nanoseconds as the JSON mapping's fraction: none, or 3, 6 or 9 digits. */
function fraction(nanos: number): string {
  if (nanos === 0) return '';
  const nine = String(nanos).padStart(9, '0');
  return `.${nanos % 1e6 === 0 ? nine.slice(0, 3) : nanos % 1e3 === 0 ? nine.slice(0, 6) : nine}`;
}

function timestamp(t: SecondsAndNanos, field: string): string {
  const seconds = t.getSeconds();
  const nanos = t.getNanos();
  // The range the JSON mapping allows: 0001-01-01 to 9999-12-31.
  if (seconds < -62_135_596_800 || seconds > 253_402_300_799 || nanos < 0 || nanos > 999_999_999) {
    throw new Malformed(`${field} is not a time`);
  }
  return `${new Date(seconds * 1000).toISOString().slice(0, 19)}${fraction(nanos)}Z`;
}

function duration(d: SecondsAndNanos, field: string): string {
  const seconds = d.getSeconds();
  const nanos = d.getNanos();
  if (Math.abs(seconds) > 315_576_000_000 || Math.abs(nanos) > 999_999_999 || (seconds > 0 && nanos < 0) || (seconds < 0 && nanos > 0)) {
    throw new Malformed(`${field} is not a duration`);
  }
  return `${seconds < 0 || nanos < 0 ? '-' : ''}${Math.abs(seconds)}${fraction(Math.abs(nanos))}s`;
}

/** A field's value as the JSON mapping writes it; undefined for a value at its default (left out). */
function jsonValue(rt: Runtime, value: unknown, field: string, enumType?: object, isFloat32 = false): unknown {
  if (value instanceof rt.Timestamp) return timestamp(value, field);
  if (value instanceof rt.Duration) return duration(value, field);
  if (value instanceof rt.Struct) return value.toJavaScript();
  if (value instanceof rt.jspb.Message) return message(rt, value, field);
  if (typeof value === 'number') {
    if (enumType) return Object.entries(enumType).find(([, n]) => n === value)?.[0] ?? value;
    const n = isFloat32 ? float32(value) : value;
    // NaN and the infinities are strings in the JSON mapping.
    return Number.isFinite(n) ? n : String(n);
  }
  return value;
}

const isDefault = (v: unknown) => v === undefined || v === null || v === 0 || v === '' || v === false;

/**
 * A message's fields by its generated getters (`getFCnt`, `getRxInfoList`, `getTagsMap`,
 * `getData_asB64`), named as the JSON mapping names them (`fCnt`, `rxInfo`, `tags`, `data`).
 */
function message(rt: Runtime, msg: JspbMessage, path: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const proto = Object.getPrototypeOf(msg) as Record<string, unknown>;
  const kinds = rt.kinds.get(msg.constructor) ?? {};
  const call = (method: string): unknown => (proto[method] as () => unknown).call(msg);
  for (const getter of Object.getOwnPropertyNames(proto)) {
    if (!getter.startsWith('get') || getter.includes('_as') || typeof proto[getter] !== 'function') continue;
    const accessor = getter.slice(3);
    // A oneof's `getParametersCase` (which member is set, with its enum `Modulation.ParametersCase`) is no field.
    if (accessor.endsWith('Case') && Object.hasOwn(msg.constructor, accessor)) continue;
    let name = accessor.charAt(0).toLowerCase() + accessor.slice(1);
    const raw = call(getter);
    const at = (member: string) => (path ? `${path}.${member}` : member);
    if (Array.isArray(raw) && name.endsWith('List')) {
      name = name.slice(0, -'List'.length);
      const list = raw.map((item, i) => jsonValue(rt, item, `${at(name)}[${i}]`, kinds.enums?.[name], kinds.float32?.includes(name)));
      if (list.length) out[name] = list;
    } else if (raw instanceof rt.jspb.Map && name.endsWith('Map')) {
      name = name.slice(0, -'Map'.length);
      const entries: Record<string, unknown> = {};
      raw.forEach((value, key) => (entries[String(key)] = jsonValue(rt, value, `${at(name)}.${String(key)}`)));
      if (raw.getLength()) out[name] = entries;
    } else {
      const value = typeof proto[`${getter}_asB64`] === 'function' ? call(`${getter}_asB64`) : raw;
      // A proto3 `optional` scalar (with a has… method) is written when set, even to its default.
      const present = typeof proto[`has${accessor}`] === 'function' && call(`has${accessor}`) === true;
      if (isDefault(value) && !present) continue;
      out[name] = jsonValue(rt, value, at(name), kinds.enums?.[name], kinds.float32?.includes(name));
    }
  }
  return out;
}

/** PostgreSQL text cannot hold U+0000; the JSON route refuses it too (docs/api.md §11). */
function refuseNul(value: unknown, path: string): void {
  if (typeof value === 'string') {
    if (value.includes('\u0000')) throw new Malformed(`${path} contains a NUL character`);
  } else if (Array.isArray(value)) value.forEach((item, i) => refuseNul(item, `${path}[${i}]`));
  else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      refuseNul(key, `${path} key`);
      refuseNul(item, path ? `${path}.${key}` : key);
    }
  }
}

/**
 * One event's Protobuf body as its JSON mapping (camelCase members, bytes in Base64, enums by name,
 * times in RFC 3339, members at their default left out). A malformed body refuses the request.
 */
export function chirpstackProtobufToJson(event: string, bytes: Uint8Array): Record<string, unknown> {
  const name = (CHIRPSTACK_PROTOBUF_EVENTS as Readonly<Record<string, keyof typeof IntegrationPb>>)[event];
  if (!name || !Object.hasOwn(CHIRPSTACK_PROTOBUF_EVENTS, event)) {
    throw new DeliveryError('event', `event ${event} has no Protobuf form; send it as JSON`);
  }
  const rt = load();
  const type = rt.integration[name] as unknown as MessageClass;
  try {
    let decoded: JspbMessage;
    try {
      decoded = type.deserializeBinaryFromReader(new type(), new rt.StrictReader(bytes));
    } catch (error) {
      // google-protobuf's own refusals (a truncated field, a wrong wire type) are plain Errors: "Assertion failed", "Failure: …".
      if (error instanceof Malformed || !(error instanceof Error)) throw error;
      throw new Malformed(`the Protobuf reader found it malformed (${error.message})`);
    }
    const json = message(rt, decoded, '');
    refuseNul(json, '');
    return json;
  } catch (error) {
    if (error instanceof Malformed) throw new DeliveryError('body', `is not a ChirpStack Protobuf ${event} event: ${error.message}`);
    throw error;
  }
}
