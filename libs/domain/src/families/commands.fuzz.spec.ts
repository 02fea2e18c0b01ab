import fc from 'fast-check';
import { bytesToAscii, bytesToBase64, bytesToHex, MAX_LORAWAN_PAYLOAD_BYTES } from '../payload';
import { rawCommandBytes } from '../commands/command-payload';
import { checkParams, type CommandParam, type CommandSpec } from './commands';
import { commandsFor, implementedDecoders } from './registry';

/*
 * Property-based tests of the downlink encoders (issue #9, fuzzing). fast-check prints the seed
 * and the shrunk counterexample on failure.
 */

const specs: [string, CommandSpec][] = implementedDecoders().flatMap((family) =>
  commandsFor(family).map((spec) => [`${family}: ${spec.name}`, spec] as [string, CommandSpec]),
);

function validValue(p: CommandParam): fc.Arbitrary<number | boolean> {
  if (p.type === 'boolean') return fc.boolean();
  return fc.integer({ min: p.minimum ?? -(2 ** 31), max: p.maximum ?? 2 ** 31 - 1 });
}

function validParams(spec: CommandSpec): fc.Arbitrary<Record<string, number | boolean>> {
  return fc.record(Object.fromEntries(Object.entries(spec.params).map(([k, p]) => [k, validValue(p)])));
}

/** A value this parameter must refuse: the wrong type, out of range, or not an integer. */
function invalidValue(p: CommandParam): fc.Arbitrary<unknown> {
  const wrongType = fc.oneof(
    fc.string({ maxLength: 20 }),
    fc.constant(null),
    fc.array(fc.integer(), { maxLength: 3 }),
    fc.object({ maxDepth: 1 }),
    fc.constantFrom('1', 'true', '0x10', '1e3', 'NaN'),
  );
  if (p.type === 'boolean') return fc.oneof(wrongType, fc.integer(), fc.constantFrom(0, 1));
  const outside: fc.Arbitrary<number>[] = [fc.double({ noInteger: true }), fc.constantFrom(NaN, Infinity, -Infinity)];
  if (p.minimum !== undefined) outside.push(fc.integer({ min: Number.MIN_SAFE_INTEGER, max: p.minimum - 1 }));
  if (p.maximum !== undefined) outside.push(fc.integer({ min: p.maximum + 1, max: Number.MAX_SAFE_INTEGER }));
  return fc.oneof(wrongType, fc.boolean(), ...outside);
}

describe('named downlink commands', () => {
  it('exist for some families (else the properties below test nothing)', () => {
    expect(specs.length).toBeGreaterThan(5);
  });

  describe.each(specs)('%s', (_name, spec) => {
    it('encodes any valid parameters to a non-empty LoRaWAN payload on a legal port', () => {
      expect(Number.isInteger(spec.port) && spec.port >= 1 && spec.port <= 223).toBe(true);
      fc.assert(
        fc.property(validParams(spec), (params) => {
          const checked = checkParams(spec, params);
          expect(checked).toEqual(params);
          const bytes = spec.encode(checked as Record<string, number | boolean>);
          expect(bytes).toBeInstanceOf(Uint8Array);
          expect(bytes.length).toBeGreaterThan(0);
          expect(bytes.length).toBeLessThanOrEqual(MAX_LORAWAN_PAYLOAD_BYTES);
          // The encoding is a function of the parameters alone.
          expect(spec.encode(checked as Record<string, number | boolean>)).toEqual(bytes);
        }),
        { numRuns: 200 },
      );
    });

    it('puts integer parameters into the bytes without loss', () => {
      const ints = Object.entries(spec.params).filter(([, p]) => p.type === 'integer');
      if (ints.length === 0) return;
      fc.assert(
        fc.property(validParams(spec), validParams(spec), (a, b) => {
          // Different parameters must never encode to the same downlink.
          const differs = Object.keys(spec.params).some((k) => a[k] !== b[k]);
          if (differs) expect(bytesToHex(spec.encode(a))).not.toBe(bytesToHex(spec.encode(b)));
        }),
        { numRuns: 200 },
      );
    });

    it('refuses a wrong parameter with a problem naming it', () => {
      const keys = Object.keys(spec.params);
      if (keys.length === 0) return;
      fc.assert(
        fc.property(
          validParams(spec),
          fc.constantFrom(...keys).chain((key) => invalidValue(spec.params[key]!).map((value) => ({ key, value }))),
          (params, bad) => {
            const problem = checkParams(spec, { ...params, [bad.key]: bad.value });
            expect(problem).toEqual({ field: `params.${bad.key}`, message: expect.any(String) });
          },
        ),
        { numRuns: 300 },
      );
    });

    it('refuses missing and unknown parameters, and non-object params, never throwing', () => {
      const junkParams = fc.oneof(
        fc.jsonValue({ maxDepth: 3 }),
        fc.dictionary(fc.string({ maxLength: 12 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 5 }),
        fc.constantFrom(
          { __proto__: { seconds: 60 } },
          JSON.parse('{"__proto__": {"enabled": true}}') as object,
          { constructor: 1 },
          { toString: 1 },
          { hasOwnProperty: true },
        ),
      );
      fc.assert(
        fc.property(junkParams, (params) => {
          const out = checkParams(spec, params);
          if ('field' in out && typeof out.field === 'string' && typeof (out as { message?: unknown }).message === 'string') {
            expect(out.field).toMatch(/^params(\.|$)/);
          } else {
            // Accepted: then the input named no other member (not even one Object.prototype has,
            // such as constructor), and the output is exactly the schema's parameters, each valid.
            const given = params === null ? [] : Object.keys(params as object);
            expect(given.filter((k) => !Object.prototype.hasOwnProperty.call(spec.params, k))).toEqual([]);
            expect(Object.keys(out).sort()).toEqual(Object.keys(spec.params).sort());
            for (const [k, p] of Object.entries(spec.params)) {
              const v = (out as Record<string, unknown>)[k];
              if (p.type === 'boolean') expect(typeof v).toBe('boolean');
              else expect(Number.isInteger(v) && (v as number) >= (p.minimum ?? -Infinity) && (v as number) <= (p.maximum ?? Infinity)).toBe(true);
            }
          }
        }),
        { numRuns: 300 },
      );
    });
  });
});

describe('raw command payloads', () => {
  it('take the same bytes in each of the three encodings', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1, maxLength: MAX_LORAWAN_PAYLOAD_BYTES }), (bytes) => {
        expect(rawCommandBytes({ payload_hex: bytesToHex(bytes) })).toEqual(bytes);
        expect(rawCommandBytes({ payload_base64: bytesToBase64(bytes) })).toEqual(bytes);
        expect(rawCommandBytes({ payload_ASCII: bytesToAscii(bytes) })).toEqual(bytes);
      }),
      { numRuns: 500 },
    );
  });

  it('refuse more than a LoRaWAN payload, naming the member', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: MAX_LORAWAN_PAYLOAD_BYTES + 1, maxLength: 600 }), (bytes) => {
        expect(rawCommandBytes({ payload_hex: bytesToHex(bytes) })).toMatchObject({ field: 'payload_hex' });
        expect(rawCommandBytes({ payload_base64: bytesToBase64(bytes) })).toMatchObject({ field: 'payload_base64' });
      }),
      { numRuns: 100 },
    );
  });

  it('answer bytes or a problem naming a payload member for any input', () => {
    const text = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 600 }),
      fc.stringMatching(/^[0-9a-fA-F]{0,600}$/),
      fc.stringMatching(/^[A-Za-z0-9+/=]{0,500}$/),
    );
    fc.assert(
      fc.property(fc.record({ payload_hex: text, payload_base64: text, payload_ASCII: text }, { requiredKeys: [] }), (input) => {
        const out = rawCommandBytes(input);
        if (out instanceof Uint8Array) {
          expect(out.length).toBeGreaterThan(0);
          expect(out.length).toBeLessThanOrEqual(MAX_LORAWAN_PAYLOAD_BYTES);
          expect(Object.keys(input)).toHaveLength(1);
        } else {
          expect(['payload', 'payload_hex', 'payload_base64', 'payload_ASCII']).toContain(out.field);
          expect(out.message.length).toBeGreaterThan(0);
        }
      }),
      { numRuns: 1000 },
    );
  });
});
