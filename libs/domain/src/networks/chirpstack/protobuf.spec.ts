import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DeliveryError } from '../network';
import { CHIRPSTACK } from '.';
import { chirpstackProtobufToJson } from './protobuf';

/** ChirpStack's own event examples and their Protobuf encoding (test-data/chirpstack, sources in its README). */
const DATA = join(__dirname, '../../../../../test-data/chirpstack');
const json = (file: string): Record<string, unknown> => JSON.parse(readFileSync(join(DATA, file), 'utf8')) as Record<string, unknown>;
const bin = (file: string) => new Uint8Array(readFileSync(join(DATA, file)));
const now = new Date('2026-05-01T12:00:10Z');
const read = (event: string, body: unknown) => CHIRPSTACK.ingest!.read(body, { event }, now);

/** ChirpStack (Rust) writes UTC as +00:00 where Go's JSON mapping and this reader write Z: the same instant. */
const utcAsZ = (value: unknown): unknown =>
  JSON.parse(JSON.stringify(value), (_key, v: unknown) => (typeof v === 'string' ? v.replace(/^(\d{4}-\d\d-\d\dT[\d:.]+)\+00:00$/, '$1Z') : v));

/** Protobuf wire bytes, for the cases ChirpStack never sends. */
const varint = (n: number): number[] => (n < 0x80 ? [n] : [(n & 0x7f) | 0x80, ...varint(Math.floor(n / 128))]);
const tag = (field: number, wire: number) => varint(field * 8 + wire);
const len = (field: number, bytes: number[]) => [...tag(field, 2), ...varint(bytes.length), ...bytes];
const str = (field: number, s: string) => len(field, [...new TextEncoder().encode(s)]);
const float = (field: number, f: number) => {
  const b = new Uint8Array(4);
  new DataView(b.buffer).setFloat32(0, f, true);
  return [...tag(field, 5), ...b];
};
const timestampOf = (seconds: number, nanos: number) => [...tag(1, 0), ...varint(seconds), ...(nanos ? [...tag(2, 0), ...varint(nanos)] : [])];
const deviceInfo = (...fields: number[][]) => len(3, fields.flat());
const bytes = (...parts: number[][]) => Uint8Array.from(parts.flat());

function refusal(event: string, body: Uint8Array) {
  try {
    chirpstackProtobufToJson(event, body);
  } catch (error) {
    if (error instanceof DeliveryError) return { field: error.field, message: error.message };
    throw error;
  }
  return null;
}

describe('ChirpStack Protobuf through @chirpstack/chirpstack-api', () => {
  it('loads the generated classes only when the first Protobuf body arrives', () => {
    // google-protobuf's generated code puts `proto` on the global object as it loads.
    expect('proto' in globalThis).toBe(false);
    chirpstackProtobufToJson('join', Uint8Array.of());
    expect('proto' in globalThis).toBe(true);
  });

  it.each(['up', 'join', 'ack', 'txack', 'log', 'status', 'location'])('%s.bin is its JSON example, every member', (event) => {
    expect(chirpstackProtobufToJson(event, bin(`protobuf/${event}.bin`))).toEqual(utcAsZ(json(`docs/${event}.json`)));
  });

  it('the captured uplinks are their JSON, every member (but rxInfo[].time, which the current proto has no more)', () => {
    for (const name of ['decentlab-dl-sht35-001.payload', 'decentlab-dl-sht35-001.payload_01', 'milesight-em300-th.payload']) {
      const captured = utcAsZ(json(`captured/${name}.json`)) as {
        rxInfo?: Record<string, unknown>[];
        confirmed?: boolean;
        deviceInfo: Record<string, unknown>;
      };
      for (const rx of captured.rxInfo ?? []) delete rx.time;
      // The captures' servers wrote these at their defaults; the mapping (and the docs examples) leave defaults out.
      if (captured.confirmed === false) delete captured.confirmed;
      if (captured.deviceInfo.deviceClassEnabled === 'CLASS_A') delete captured.deviceInfo.deviceClassEnabled;
      if (JSON.stringify(captured.deviceInfo.tags) === '{}') delete captured.deviceInfo.tags;
      expect(chirpstackProtobufToJson('up', bin(`protobuf/captured/${name}.bin`))).toEqual(captured);
    }
  });

  it('an empty body is the message with every member at its default: {} (then refused for what it lacks, as its JSON twin)', () => {
    for (const event of ['up', 'join', 'ack', 'txack', 'log', 'status', 'location']) {
      expect(chirpstackProtobufToJson(event, Uint8Array.of())).toEqual({});
      let fromProtobuf: unknown, fromJson: unknown;
      try {
        fromProtobuf = read(event, Uint8Array.of());
      } catch (error) {
        fromProtobuf = error;
      }
      try {
        fromJson = read(event, {});
      } catch (error) {
        fromJson = error;
      }
      expect(fromProtobuf).toEqual(fromJson);
    }
  });

  it('skips fields it does not know, of every wire type, as any Protobuf reader does', () => {
    const status = [...bin('protobuf/status.bin')];
    const unknown = [...tag(100, 0), ...varint(300), ...str(101, 'later'), ...tag(102, 1), 1, 2, 3, 4, 5, 6, 7, 8, ...tag(103, 5), 1, 2, 3, 4];
    expect(chirpstackProtobufToJson('status', bytes(unknown, status, unknown))).toEqual(chirpstackProtobufToJson('status', bytes(status)));
  });

  it('writes the JSON mapping’s forms: float32 shortest, enums by name (a number the proto does not name as the number), times with 0, 3, 6 or 9 digits', () => {
    expect(chirpstackProtobufToJson('status', bytes(float(8, 0.1), tag(5, 0), varint(2 ** 32 - 10)))).toEqual({ batteryLevel: 0.1, margin: -10 });
    expect(chirpstackProtobufToJson('log', bytes(tag(3, 0), [1], tag(4, 0), [99]))).toEqual({ level: 'WARNING', code: 99 });
    const at = (nanos: number) => chirpstackProtobufToJson('join', bytes(len(2, timestampOf(1_658_136_855, nanos)))).time;
    expect([at(0), at(5e8), at(775_023_000), at(775_023_242)]).toEqual([
      '2022-07-18T09:34:15Z',
      '2022-07-18T09:34:15.500Z',
      '2022-07-18T09:34:15.775023Z',
      '2022-07-18T09:34:15.775023242Z',
    ]);
  });

  it('refuses a malformed body with a 4xx naming the body: truncated, a wrong wire type, a length past the end, a group', () => {
    const up = bin('protobuf/up.bin');
    const cases: [string, Uint8Array][] = [
      ['up', up.subarray(0, up.length - 3)],
      ['status', Uint8Array.of(0x0b, 0x00)], // a group (wire type 3)
      ['status', bytes(tag(1, 0), [5])], // deduplicationId, a string, as a varint
      ['status', bytes(tag(8, 0), [5])], // batteryLevel, a float, as a varint
      ['status', bytes(tag(3, 0), [1])], // deviceInfo, a message, as a varint
      ['status', bytes(tag(1, 2), [0x10, 0x41])], // a length past the end
      ['status', bytes(tag(5, 0), [0xff])], // a truncated varint
      ['status', Uint8Array.of(0x0f)], // wire type 7
    ];
    for (const [event, body] of cases) {
      expect(refusal(event, body)).toEqual({ field: 'body', message: expect.stringContaining(`is not a ChirpStack Protobuf ${event} event`) });
    }
  });

  it('refuses a string that is not UTF-8 or holds NUL, as the JSON route does, naming the member', () => {
    expect(refusal('status', bytes(len(1, [0xff, 0xfe])))).toEqual({ field: 'body', message: expect.stringContaining('not UTF-8') });
    expect(refusal('join', bytes(deviceInfo(len(7, [0xc3]))))).toEqual({ field: 'body', message: expect.stringContaining('not UTF-8') });
    expect(refusal('join', bytes(deviceInfo(str(7, 'a\u0000b'))))).toEqual({
      field: 'body',
      message: expect.stringContaining('deviceInfo.deviceName contains a NUL character'),
    });
    expect(refusal('log', bytes(len(6, [...str(1, 'k'), ...str(2, 'v\u0000')])))).toEqual({
      field: 'body',
      message: expect.stringContaining('context.k contains a NUL character'),
    });
  });

  it('refuses a time past the JSON mapping’s range, and an event with no Protobuf form', () => {
    expect(refusal('join', bytes(len(2, timestampOf(253_402_300_800, 0))))).toEqual({ field: 'body', message: expect.stringContaining('time is not a time') });
    expect(refusal('integration', Uint8Array.of())).toMatchObject({ field: 'event' });
    expect(refusal('toString', Uint8Array.of())).toMatchObject({ field: 'event' });
  });
});
