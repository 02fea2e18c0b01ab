import fc from 'fast-check';
import { encodeCayenneLpp, LPP_TYPES, type LppValue } from './cayenne-lpp';
import { encodeDtCameraTrapStatus } from './dt-camera-trap';
import { encodeDtEnvironment } from './dt-environment';
import { encodeDtTrackerPosition } from './dt-tracker';
import { asciiToBytes } from '../commands/command-payload';
import { base64ToBytes, bytesToAscii, bytesToBase64, bytesToHex, hexToBytes } from '../payload';
import type { DecodeResult } from './decoder';
import { fromCodecOutput } from './codec-output';
import { decoderByName, implementedDecoders } from './registry';

/*
 * Property-based tests of the built-in decoders (issue #9, fuzzing). fast-check picks a new seed
 * each run and prints it with the shrunk counterexample on failure; replay a failure with
 * `fc.assert(..., { seed, path })`. Run counts keep this file to a few seconds.
 */

const MEASUREMENT_KEYS = ['temperature', 'humidity', 'battery_voltage', 'battery_percent', 'lat', 'lon', 'alt', 'firmware_version'];

/** A decode result as the ingest path relies on it: the right shape, and storable as jsonb. */
function expectWellFormed(r: DecodeResult): void {
  expect(typeof r.valid).toBe('boolean');
  expect(r.valid ? r.error === null : typeof r.error === 'string' && r.error.length > 0).toBe(true);
  expect(typeof r.decoded).toBe('object');
  expect(r.decoded).not.toBeNull();
  expect(Object.keys(r.measurements).sort()).toEqual([...MEASUREMENT_KEYS].sort());
  for (const [k, v] of Object.entries(r.measurements)) {
    if (k === 'firmware_version') expect(v === null || typeof v === 'string').toBe(true);
    else expect(v === null || (typeof v === 'number' && Number.isFinite(v))).toBe(true);
  }
  // jsonb and the API both go through JSON: a value JSON cannot carry (NaN, Infinity, undefined,
  // a BigInt, a cycle) would be lost or throw on the way out.
  const json = JSON.stringify(r.decoded);
  expect(JSON.parse(json)).toEqual(r.decoded);
  expect(JSON.stringify(r.decoded, (_k, v: unknown) => (typeof v === 'number' && !Number.isFinite(v) ? 'NOT-FINITE' : v))).not.toContain('NOT-FINITE');
}

const payload = fc.uint8Array({ minLength: 0, maxLength: 242 });
const fPort = fc.oneof(fc.integer({ min: 0, max: 255 }), fc.constantFrom(1, 2, 3, 99), fc.integer(), fc.constantFrom(NaN, -1, 1.5, Infinity));

describe.each(implementedDecoders())('decoder %s under random input', (name) => {
  const decode = decoderByName(name)!;

  it('never throws, and always returns a well-formed, JSON-safe result', () => {
    fc.assert(
      fc.property(payload, fPort, (bytes, port) => {
        expectWellFormed(decode(bytes, port));
      }),
      { numRuns: 2000 },
    );
  });

  it('gives the same answer twice and leaves the bytes alone (pure)', () => {
    fc.assert(
      fc.property(payload, fPort, (bytes, port) => {
        const copy = Uint8Array.from(bytes);
        const a = decode(bytes, port);
        expect(bytes).toEqual(copy);
        expect(decode(bytes, port)).toEqual(a);
      }),
      { numRuns: 300 },
    );
  });

  it('survives payloads of exactly the lengths its layouts expect', () => {
    // Fixed-length families are most fragile at their own lengths, which random lengths rarely hit.
    const lengths = fc.constantFrom(1, 2, 3, 4, 9, 10, 11, 12, 13, 27, 28, 29);
    fc.assert(
      fc.property(
        lengths.chain((n) => fc.uint8Array({ minLength: n, maxLength: n })),
        fc.integer({ min: 0, max: 4 }),
        (bytes, port) => expectWellFormed(decode(bytes, port)),
      ),
      { numRuns: 1000 },
    );
  });
});

describe('Cayenne LPP: build → decode round trips', () => {
  const lpp = decoderByName('Cayenne LPP')!;
  /** The raw integer each LPP type carries, by its size and signedness (the table in cayenne-lpp.ts). */
  const RAW: Record<string, { bytes: number; signed: boolean; factor: number; parts?: string[] }> = {
    digital_in: { bytes: 1, signed: false, factor: 1 },
    digital_out: { bytes: 1, signed: false, factor: 1 },
    analog_in: { bytes: 2, signed: true, factor: 0.01 },
    analog_out: { bytes: 2, signed: true, factor: 0.01 },
    generic: { bytes: 4, signed: false, factor: 1 },
    illuminance: { bytes: 2, signed: false, factor: 1 },
    presence: { bytes: 1, signed: false, factor: 1 },
    temperature: { bytes: 2, signed: true, factor: 0.1 },
    humidity: { bytes: 1, signed: false, factor: 0.5 },
    accelerometer: { bytes: 2, signed: true, factor: 0.001, parts: ['x', 'y', 'z'] },
    barometer: { bytes: 2, signed: false, factor: 0.1 },
    voltage: { bytes: 2, signed: false, factor: 0.01 },
    current: { bytes: 2, signed: false, factor: 0.001 },
    frequency: { bytes: 4, signed: false, factor: 1 },
    percentage: { bytes: 1, signed: false, factor: 1 },
    altitude: { bytes: 2, signed: true, factor: 1 },
    load: { bytes: 3, signed: true, factor: 0.001 },
    concentration: { bytes: 2, signed: false, factor: 1 },
    power: { bytes: 2, signed: false, factor: 1 },
    distance: { bytes: 4, signed: false, factor: 0.001 },
    energy: { bytes: 4, signed: false, factor: 0.001 },
    direction: { bytes: 2, signed: false, factor: 1 },
    unixtime: { bytes: 4, signed: false, factor: 1 },
    gyrometer: { bytes: 2, signed: true, factor: 0.01, parts: ['x', 'y', 'z'] },
    colour: { bytes: 1, signed: false, factor: 1, parts: ['r', 'g', 'b'] },
    gps: { bytes: 3, signed: true, factor: 0, parts: ['lat', 'lon', 'alt'] },
    switch: { bytes: 1, signed: false, factor: 1 },
  };
  const GPS_FACTORS: Record<string, number> = { lat: 0.0001, lon: 0.0001, alt: 0.01 };
  const typeIds = Object.keys(LPP_TYPES).map(Number);
  /** An LPP type's name and its layout here; a type without one fails the test naming it. */
  const layoutOf = (typeId: number) => {
    const name = LPP_TYPES[typeId]?.name;
    const layout = name === undefined ? undefined : RAW[name];
    if (name === undefined || !layout) throw new Error(`no layout for LPP type ${typeId}`);
    return { name, layout };
  };

  it('knows the layout of every LPP type the decoder implements', () => {
    // A type added to the decoder without a layout here would silently escape the round trip.
    expect(typeIds.map((id) => LPP_TYPES[id]!.name).sort()).toEqual(Object.keys(RAW).sort());
  });

  const rawOf = (bytes: number, signed: boolean) => {
    const bits = bytes * 8;
    return signed ? fc.integer({ min: -(2 ** (bits - 1)), max: 2 ** (bits - 1) - 1 }) : fc.integer({ min: 0, max: 2 ** bits - 1 });
  };
  const writeInt = (out: number[], v: number, bytes: number) => {
    const b = Buffer.alloc(bytes);
    if (v < 0) b.writeIntBE(v, 0, bytes);
    else b.writeUIntBE(v, 0, bytes);
    out.push(...b);
  };

  const item = fc.record({ channel: fc.integer({ min: 0, max: 255 }), typeId: fc.constantFrom(...typeIds) }).chain(({ channel, typeId }) => {
    const { layout } = layoutOf(typeId);
    return fc
      .array(rawOf(layout.bytes, layout.signed), { minLength: layout.parts?.length ?? 1, maxLength: layout.parts?.length ?? 1 })
      .map((raws) => ({ channel, typeId, raws }));
  });

  it('decodes every value of a random multi-value payload to its raw value × resolution', () => {
    fc.assert(
      fc.property(fc.array(item, { minLength: 1, maxLength: 12 }), (items) => {
        const bytes: number[] = [];
        for (const it of items) {
          bytes.push(it.channel, it.typeId);
          const { layout } = layoutOf(it.typeId);
          for (const raw of it.raws) writeInt(bytes, raw, layout.bytes);
        }
        if (bytes.length > 242) return;
        const r = lpp(Uint8Array.from(bytes), 1);
        expect(r.valid).toBe(true);
        expectWellFormed(r);
        // The last value of a (channel, type) pair wins; compare against that. The first GPS reading
        // is the device's position (`lat`/`lon`/`alt`, and only there); a later one is `gps_<channel>`.
        const gpsItems = items.filter((it) => layoutOf(it.typeId).name === 'gps');
        const [firstGps] = gpsItems;
        if (firstGps) ['lat', 'lon', 'alt'].forEach((p, i) => expect(r.decoded[p] as number).toBeCloseTo(firstGps.raws[i]! * GPS_FACTORS[p]!, 6));
        const last = new Map<string, (typeof items)[number]>();
        for (const it of items) if (it !== firstGps) last.set(`${layoutOf(it.typeId).name}_${it.channel}`, it);
        for (const [key, it] of last) {
          const { name, layout } = layoutOf(it.typeId);
          const got = r.decoded[key];
          if (layout.parts) {
            const parts = got as Record<string, number>;
            layout.parts.forEach((p, i) => expect(parts[p]).toBeCloseTo(it.raws[i]! * (name === 'gps' ? GPS_FACTORS[p]! : layout.factor), 6));
          } else {
            expect(got as number).toBeCloseTo(it.raws[0]! * layout.factor, 6);
          }
        }
      }),
      { numRuns: 500 },
    );
  });

  const lppValue: fc.Arbitrary<LppValue> = fc.oneof(
    fc.record({
      channel: fc.integer({ min: 0, max: 255 }),
      type: fc.constant('temperature' as const),
      value: fc.double({ min: -3276.8, max: 3276.7, noNaN: true }),
    }),
    fc.record({ channel: fc.integer({ min: 0, max: 255 }), type: fc.constant('humidity' as const), value: fc.double({ min: 0, max: 100, noNaN: true }) }),
    fc.record({ channel: fc.integer({ min: 0, max: 255 }), type: fc.constant('voltage' as const), value: fc.double({ min: 0, max: 655.35, noNaN: true }) }),
    fc.record({ channel: fc.integer({ min: 0, max: 255 }), type: fc.constant('barometer' as const), value: fc.double({ min: 0, max: 6553.5, noNaN: true }) }),
    fc.record({
      channel: fc.integer({ min: 0, max: 255 }),
      type: fc.constant('gps' as const),
      lat: fc.double({ min: -90, max: 90, noNaN: true }),
      lon: fc.double({ min: -180, max: 180, noNaN: true }),
      alt: fc.double({ min: -83886.08, max: 83886.07, noNaN: true }),
    }),
  );

  it('round-trips the demo encoder’s typed values within each type’s resolution', () => {
    const resolution = { temperature: 0.1, humidity: 0.5, voltage: 0.01, barometer: 0.1 } as const;
    fc.assert(
      fc.property(fc.array(lppValue, { minLength: 1, maxLength: 10 }), (values) => {
        const r = lpp(encodeCayenneLpp(values), 1);
        expect(r.valid).toBe(true);
        // The first GPS reading is the device's position (`lat`/`lon`/`alt`); a later one `gps_<channel>`.
        const firstGps = values.find((v) => v.type === 'gps');
        const last = new Map<string, LppValue>();
        for (const v of values) if (v !== firstGps) last.set(`${v.type}_${v.channel}`, v);
        if (firstGps?.type === 'gps') last.set('position', firstGps);
        for (const [key, v] of last) {
          if (v.type === 'gps') {
            const g = (key === 'position' ? r.decoded : r.decoded[key]) as { lat: number; lon: number; alt: number };
            expect(Math.abs(g.lat - v.lat)).toBeLessThanOrEqual(0.00005 + 1e-9);
            expect(Math.abs(g.lon - v.lon)).toBeLessThanOrEqual(0.00005 + 1e-9);
            expect(Math.abs(g.alt - v.alt)).toBeLessThanOrEqual(0.005 + 1e-9);
          } else {
            expect(Math.abs((r.decoded[key] as number) - v.value)).toBeLessThanOrEqual(resolution[v.type] / 2 + 1e-9);
          }
        }
        // The spec's plain names come from the first value of their kind.
        const firstT = values.find((v) => v.type === 'temperature');
        if (firstT?.type === 'temperature') {
          expect(r.measurements.temperature).toBe(r.decoded.temperature);
          expect(Math.abs((r.decoded.temperature as number) - firstT.value)).toBeLessThanOrEqual(0.05 + 1e-9);
        }
      }),
      { numRuns: 500 },
    );
  });
});

describe('DT families: encode → decode round trips', () => {
  const int = (min: number, max: number) => fc.integer({ min, max });
  const real = (min: number, max: number) => fc.double({ min, max, noNaN: true });

  it('DT Tracker position reports', () => {
    const tracker = decoderByName('DT Tracker')!;
    fc.assert(
      fc.property(
        fc.record({
          tsUnix: int(0, 0xffffffff),
          lat: real(-90, 90),
          lon: real(-180, 180),
          alt: int(-32768, 32767),
          ttf: int(0, 255),
          dop: real(0, 25.5),
          // bat_lora is bat − 300 mV, clamped: keep bat where both fit.
          batteryMv: int(300, 0xffff),
          batteryPercent: int(0, 255),
          uid: int(0, 0xffff),
          firmware: fc.tuple(int(0, 255), int(0, 255), int(0, 0xffff)),
        }),
        (p) => {
          const bytes = encodeDtTrackerPosition(p);
          expect(bytes.length).toBe(28);
          const r = tracker(bytes, 1);
          expect(r.valid).toBe(true);
          expectWellFormed(r);
          const d = r.decoded as Record<'lat' | 'lon' | 'dop', number>;
          expect(Math.abs(d.lat - p.lat)).toBeLessThanOrEqual(0.5e-7 + 1e-12);
          expect(Math.abs(d.lon - p.lon)).toBeLessThanOrEqual(0.5e-7 + 1e-12);
          expect(d).toMatchObject({
            ts_unix: p.tsUnix,
            alt: p.alt,
            ttf: p.ttf,
            bat: p.batteryMv,
            bat_lora: p.batteryMv - 300,
            bat_percent: p.batteryPercent,
            uid: p.uid,
          });
          expect(Math.abs(d.dop - p.dop)).toBeLessThanOrEqual(0.05 + 1e-9);
          expect(r.measurements).toMatchObject({
            lat: d.lat,
            lon: d.lon,
            alt: p.alt,
            battery_percent: p.batteryPercent,
            firmware_version: p.firmware.join('.'),
          });
        },
      ),
      { numRuns: 500 },
    );
  });

  it('DT Environment reports', () => {
    const env = decoderByName('DT Environment')!;
    fc.assert(
      fc.property(
        fc.record({
          temperature: real(-327.68, 327.66),
          humidity: real(0, 100),
          pressure: real(0, 6553.5),
          illuminance: int(0, 0xffff),
          co2: int(0, 0xffff),
          batteryMv: int(0, 0xffff),
          batteryPercent: int(0, 255),
        }),
        (e) => {
          const r = env(encodeDtEnvironment(e), 1);
          expect(r.valid).toBe(true);
          expectWellFormed(r);
          const d = r.decoded as Record<'temperature' | 'humidity' | 'pressure', number>;
          expect(Math.abs(d.temperature - e.temperature)).toBeLessThanOrEqual(0.005 + 1e-9);
          expect(Math.abs(d.humidity - e.humidity)).toBeLessThanOrEqual(0.25 + 1e-9);
          expect(Math.abs(d.pressure - e.pressure)).toBeLessThanOrEqual(0.05 + 1e-9);
          expect(d).toMatchObject({ illuminance: e.illuminance, co2: e.co2, bat: e.batteryMv, bat_percent: e.batteryPercent });
        },
      ),
      { numRuns: 500 },
    );
  });

  it('DT Camera Trap status', () => {
    const cam = decoderByName('DT Camera Trap')!;
    fc.assert(
      fc.property(
        fc.record({
          batteryMv: int(0, 0xffff),
          batteryPercent: int(0, 255),
          temperature: real(-327.68, 327.67),
          photos: int(0, 0xffff),
          storageFreeMb: int(0, 0xffff),
          sdOk: fc.boolean(),
          pirEnabled: fc.boolean(),
          nightMode: fc.boolean(),
        }),
        (s) => {
          const r = cam(encodeDtCameraTrapStatus(s), 3);
          expect(r.valid).toBe(true);
          expectWellFormed(r);
          expect(Math.abs((r.decoded.temperature as number) - s.temperature)).toBeLessThanOrEqual(0.005 + 1e-9);
          expect(r.decoded).toMatchObject({
            bat: s.batteryMv,
            bat_percent: s.batteryPercent,
            photos: s.photos,
            storage_free_mb: s.storageFreeMb,
            sd_ok: s.sdOk,
            pir_enabled: s.pirEnabled,
            night_mode: s.nightMode,
          });
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('payload encodings: bytes → text → bytes', () => {
  it('hex, Base64 and the ASCII form are lossless', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 242 }), (bytes) => {
        expect(hexToBytes(bytesToHex(bytes))).toEqual(bytes);
        expect(base64ToBytes(bytesToBase64(bytes))).toEqual(bytes);
        expect(asciiToBytes(bytesToAscii(bytes))).toEqual(bytes);
      }),
      { numRuns: 1000 },
    );
  });

  it('the parsers answer null or bytes for any text, never throw', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'binary', maxLength: 300 }), fc.stringMatching(/^[0-9a-fA-F=+/\\x]{0,300}$/)), (text) => {
        for (const parse of [hexToBytes, base64ToBytes, asciiToBytes]) {
          const out = parse(text);
          expect(out === null || out instanceof Uint8Array).toBe(true);
        }
      }),
      { numRuns: 1000 },
    );
  });
});

describe('vendor codec output → decode result', () => {
  it('turns any JSON a codec can return into a well-formed result', () => {
    const named = fc.dictionary(
      fc.constantFrom(
        'data',
        'errors',
        'warnings',
        'temperature',
        'lat',
        'lon',
        'latitude',
        'longitude',
        'firmware',
        'battery',
        '__proto__',
        'constructor',
        'toString',
        'valueOf',
      ),
      fc.jsonValue({ maxDepth: 3 }),
    );
    const output = fc.oneof(
      fc.jsonValue({ maxDepth: 4 }),
      named,
      fc.record(
        {
          data: fc.oneof(named, fc.jsonValue({ maxDepth: 3 })),
          // Messages are strings by convention; objects with members named like Object's methods too.
          errors: fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.array(named, { maxLength: 3 })),
          warnings: fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.array(named, { maxLength: 3 })),
        },
        { requiredKeys: [] },
      ),
    );
    fc.assert(
      fc.property(output, (o) => {
        // What the sandbox hands over has been through JSON.parse, as here.
        expectWellFormed(fromCodecOutput(JSON.parse(JSON.stringify(o)) as unknown));
      }),
      { numRuns: 1000 },
    );
  });
});
