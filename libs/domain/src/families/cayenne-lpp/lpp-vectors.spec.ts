import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cayenneLppDecoder, LPP_TYPES } from './decoder';

/*
 * Every vector of test-data/cayenne-lpp (three independent implementations and The Things Stack's
 * documentation; see its README) decoded here. The vectors name types by their own libraries'
 * words (`relative_humidity`, `luminosity`, `latitude`…); what is compared is the type number,
 * the channel and the value, under this decoder's names (`<name>_<channel>`, GPS as lat/lon/alt).
 */
const DATA = join(__dirname, '../../../../../test-data/cayenne-lpp');
const FILES = ['electroniccats-cayennelpp.json', 'go-cayenne-lib.json', 'pycayennelpp.json', 'tts-docs.json'];

type Value = number | { x: number; y: number; z: number } | { latitude: number; longitude: number; altitude: number } | { r: number; g: number; b: number };
interface Expected {
  channel: number;
  type: number;
  name: string;
  value: Value;
}
interface Vector {
  line?: number;
  test?: string;
  hex: string;
  expected?: Expected[];
  bytes_say?: Expected[];
  expected_error?: string;
}
interface VectorFile {
  vectors: Vector[];
  errors?: Vector[];
  suspect?: Vector[];
  downlink?: Vector[];
}

const files = FILES.map((file) => ({ file, data: JSON.parse(readFileSync(join(DATA, file), 'utf8')) as VectorFile }));
const bytes = (hex: string) => Uint8Array.from(Buffer.from(hex, 'hex'));
const label = (file: string, v: Vector) => `${file}:${v.line ?? '-'} ${v.test ?? ''} ${v.hex}`;

/** The value as this decoder writes it: GPS members are lat/lon/alt. */
function ours(value: Value): unknown {
  if (typeof value === 'object' && 'latitude' in value) return { lat: value.latitude, lon: value.longitude, alt: value.altitude };
  return value;
}

/**
 * What the decoded record must hold: the last value of each `<name>_<channel>` (a later one of the
 * same pair replaces it), the first GPS reading being the position's `lat`, `lon` and `alt` instead.
 */
function expectedDecoded(expected: Expected[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  let position = false;
  for (const e of expected) {
    const type = LPP_TYPES[e.type];
    if (!type) throw new Error(`type ${e.type} of the vector is not in LPP_TYPES`);
    if (type.name === 'gps' && !position) {
      position = true;
      Object.assign(out, ours(e.value));
      continue;
    }
    out[`${type.name}_${e.channel}`] = ours(e.value);
  }
  return out;
}

function expectClose(got: unknown, want: unknown, at: string): void {
  if (typeof want === 'number') {
    expect(typeof got).toBe('number');
    // The vectors write decimal values (27.2); float32 implementations (TTS) differ below 1e-6.
    expect(Math.abs((got as number) - want)).toBeLessThan(1e-6);
    return;
  }
  expect(Object.keys(got as object).sort()).toEqual(Object.keys(want as object).sort());
  for (const [k, v] of Object.entries(want as object)) expectClose((got as Record<string, unknown>)[k], v, `${at}.${k}`);
}

describe('Cayenne LPP: the vectors of independent implementations (test-data/cayenne-lpp)', () => {
  const decodes = files.flatMap(({ file, data }) => data.vectors.map((v) => [label(file, v), v] as const));
  it('has the vectors the README lists', () => {
    expect(decodes.length).toBe(23 + 2 + 26 + 1);
  });

  it.each(decodes)('%s', (_, v) => {
    const r = cayenneLppDecoder(bytes(v.hex), 1);
    expect(r.error).toBeNull();
    expect(r.valid).toBe(true);
    const want = expectedDecoded(v.expected!);
    for (const [key, value] of Object.entries(want)) expectClose(r.decoded[key], value, key);
  });

  // ElectronicCats' `suspect` cases: the test's call contradicts its own bytes, so the call is not
  // checked; the bytes are an ordinary LPP frame and must decode to what they say.
  const suspects = files.flatMap(({ file, data }) => (data.suspect ?? []).map((v) => [label(file, v), v] as const));
  it.each(suspects)('decodes what the bytes say: %s', (_, v) => {
    const r = cayenneLppDecoder(bytes(v.hex), 1);
    expect(r.valid).toBe(true);
    expect(r.decoded).toMatchObject(expectedDecoded(v.bytes_say!));
  });

  const errors = files.flatMap(({ file, data }) => (data.errors ?? []).map((v) => [label(file, v), v] as const));
  it.each(errors)('refuses what the source refuses: %s', (_, v) => {
    const r = cayenneLppDecoder(bytes(v.hex), 1);
    expect(r.valid).toBe(false);
    expect(r.error).toMatch(/unknown LPP type|payload ends/);
    expect(r.measurements.temperature).toBeNull();
  });

  it('the vectors cover every type the decoder knows except percentage (no source has one)', () => {
    const seen = new Set(
      files.flatMap(({ data }) => [...data.vectors, ...(data.suspect ?? [])].flatMap((v) => (v.expected ?? v.bytes_say!).map((e) => e.type))),
    );
    const untested = Object.keys(LPP_TYPES)
      .map(Number)
      .filter((t) => !seen.has(t));
    expect(untested).toEqual([120]);
  });
});

describe('Cayenne LPP: the downlink form (go-cayenne-lib) is not an uplink', () => {
  // Channel + 2-byte value, no type byte, 0xFF at the end: read as an uplink, its second channel
  // has the "type" 0xEA. Refusing it beats storing made-up values.
  const downlinks = files.flatMap(({ file, data }) => (data.downlink ?? []).map((v) => [label(file, v), v] as const));
  it.each(downlinks)('%s', (_, v) => {
    const r = cayenneLppDecoder(bytes(v.hex), 1);
    expect(r.valid).toBe(false);
    expect(r.error).toBe('unknown LPP type 234 on channel 2');
  });
});
