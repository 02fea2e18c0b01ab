import fc from 'fast-check';
import type { DecodeResult } from '@dts/domain';
import { newCodecModule } from './codec-limits';
import { CodecSandbox } from './codec-sandbox';

/*
 * Property-based tests of the vendor-codec sandbox (issue #9, fuzzing): random and hostile scripts,
 * random bytes and ports never throw out of the sandbox, never take the process down, and always
 * give a well-formed result. Each QuickJS load costs about a millisecond and a hostile one up to
 * its deadline, so the run counts stay modest. fast-check prints seed and counterexample on failure.
 */

const GOOD = `
function decodeUplink(input) {
  var b = input.bytes, out = { n: b.length, port: input.fPort, sum: 0 };
  for (var i = 0; i < b.length; i++) out.sum += b[i];
  if (b.length > 0) out.temperature = ((b[0] << 24 >> 16) | (b[1] || 0)) / 100;
  return { data: out, warnings: b.length > 50 ? ['long'] : [], errors: [] };
}
function encodeDownlink(input) {
  var d = input.data, bytes = [];
  for (var k in d) if (typeof d[k] === 'number') bytes.push(d[k] & 255);
  return { bytes: bytes, fPort: typeof d.port === 'number' ? d.port : 1 };
}`;

/** Bodies of decodeUplink/encodeDownlink that misbehave in every way a vendor script could. */
const HOSTILE_BODIES = [
  'throw new Error("boom")',
  'throw 42',
  'throw null',
  'for (;;) {}',
  'while (true) { input = [input]; }',
  'var a = []; for (;;) a.push("x".repeat(1 << 16));',
  'return decodeUplink(input)',
  'return undefined',
  'return null',
  'return 42',
  'return "data"',
  'return [1, 2, 3]',
  'return { data: null }',
  'return { data: [1, 2] }',
  'return { data: { v: NaN, w: Infinity, u: undefined, f: function () {} } }',
  'var o = {}; o.self = o; return { data: o }',
  'return { data: { big: "x".repeat(1 << 20) } }',
  'return { data: {}, errors: [{ toString: function () { throw new Error("no") } }] }',
  'return { data: {}, errors: "not an array", warnings: 7 }',
  'return { data: JSON.parse(\'{"__proto__": {"polluted": true}, "constructor": {"prototype": {"polluted": true}}}\') }',
  'return { get data() { throw new Error("getter") } }',
  'return { toJSON: function () { throw new Error("toJSON") } }',
  'return { toJSON: function () { for (;;) {} } }',
  'return { bytes: [256, -1, 1.5, "a"], fPort: 0 }',
  'return { bytes: new Array(1e6).fill(1), fPort: 1e9 }',
  'Object.prototype.data = { evil: true }; return {}',
  'globalThis.decodeUplink = null; return { data: {} }',
  'return Promise.resolve({ data: {} })',
  'return { data: { d: new Date(0), r: /x/g, m: new Map([[1, 2]]) } }',
  'return { data: { n: 1e308 * 10, s: Symbol("s").toString() } }',
  'String.prototype.toString = null; JSON.stringify = null; return { data: {} }',
];

const SCRIPT_FRAGMENTS = [
  'function decodeUplink(input) {',
  'function encodeDownlink(input) {',
  '}',
  '{',
  '(',
  ')',
  'return',
  'var x = ',
  'input.bytes',
  'input.fPort',
  '[0]',
  '{ data: {} }',
  'for (;;) {}',
  'throw new Error("x");',
  'require("fs")',
  'process.exit(1)',
  'import("os")',
  'this.constructor.constructor("return process")()',
  '/* ',
  ' */',
  '"',
  '`${',
  ';',
  '\u0000',
  '\uD800',
  'debugger;',
  'new Array(1e9)',
  'Atomics.wait',
  'with (input) {',
];

function expectWellFormed(r: DecodeResult): void {
  expect(typeof r.valid).toBe('boolean');
  if (!r.valid) expect(typeof r.error).toBe('string');
  expect(typeof r.decoded).toBe('object');
  expect(r.decoded).not.toBeNull();
  // The ingest path stores decoded as jsonb: it must survive JSON.
  expect(JSON.parse(JSON.stringify(r.decoded))).toEqual(r.decoded);
}

describe('CodecSandbox under random and hostile input', () => {
  let sandbox: CodecSandbox;
  beforeAll(async () => {
    sandbox = new CodecSandbox(await newCodecModule(), () => newCodecModule());
  });
  afterAll(() => sandbox.close());

  /** The sandbox still decodes a sound codec: nothing before broke it. */
  const stillWorks = () => {
    const r = sandbox.decode('good', GOOD, Uint8Array.from([0x08, 0x66]), 2);
    expect(r).toMatchObject({ valid: true, decoded: { n: 2, port: 2, sum: 0x08 + 0x66, temperature: 21.5 } });
  };

  it('runs a sound codec over any bytes and port', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 242 }), fc.oneof(fc.integer({ min: 0, max: 255 }), fc.integer()), (bytes, port) => {
        const r = sandbox.decode('good', GOOD, bytes, port);
        expectWellFormed(r);
        expect(r.valid).toBe(true);
        expect(r.decoded).toMatchObject({ n: bytes.length, port, sum: bytes.reduce((a, b) => a + b, 0) });
      }),
      { numRuns: 200 },
    );
  });

  it('turns every hostile decodeUplink into an invalid or well-formed result, and keeps working', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...HOSTILE_BODIES),
        fc.uint8Array({ maxLength: 32 }),
        fc.integer({ min: 0, max: 255 }),
        fc.boolean(),
        (body, bytes, port, cached) => {
          // A fresh key loads the script anew; a shared one exercises the reuse of a loaded codec.
          const key = cached ? `hostile-${body}` : `hostile-${Math.random()}`;
          let r: DecodeResult | undefined;
          expect(() => {
            r = sandbox.decode(key, `function decodeUplink(input) { ${body} }`, bytes, port);
          }).not.toThrow();
          expectWellFormed(r!);
          expect(Object.prototype).not.toHaveProperty('polluted');
        },
      ),
      { numRuns: 60 },
    );
    stillWorks();
  }, 60_000);

  it('survives every hostile encodeDownlink, answering bytes or a reason', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...HOSTILE_BODIES),
        fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }),
        (body, data) => {
          const script = `function decodeUplink(input) { return { data: {} }; }\nfunction encodeDownlink(input) { ${body} }`;
          let out: ReturnType<CodecSandbox['encode']> | undefined;
          expect(() => {
            out = sandbox.encode(`enc-${Math.random()}`, script, data);
          }).not.toThrow();
          if (typeof out === 'string') expect(out.length).toBeGreaterThan(0);
          else {
            expect(out!.bytes).toBeInstanceOf(Uint8Array);
            expect(out!.fPort === null || (Number.isInteger(out!.fPort) && out!.fPort >= 1 && out!.fPort <= 223)).toBe(true);
          }
        },
      ),
      { numRuns: 40 },
    );
    stillWorks();
  }, 60_000);

  it('checks and runs random script text without throwing', () => {
    const script = fc.oneof(
      fc.array(fc.constantFrom(...SCRIPT_FRAGMENTS), { maxLength: 12 }).map((parts) => parts.join(' ')),
      fc.string({ unit: 'binary', maxLength: 200 }),
      fc.constantFrom(...HOSTILE_BODIES),
    );
    fc.assert(
      fc.property(script, fc.uint8Array({ maxLength: 16 }), (text, bytes) => {
        let problem: string | null = null;
        expect(() => {
          problem = sandbox.check(text);
        }).not.toThrow();
        expect(problem === null || typeof problem === 'string').toBe(true);
        let r: DecodeResult | undefined;
        expect(() => {
          r = sandbox.decode(`random-${Math.random()}`, text, bytes, 1);
        }).not.toThrow();
        expectWellFormed(r!);
        // A script the check accepts defines decodeUplink; one it refuses never decodes validly.
        if (problem !== null) expect(r!.valid).toBe(false);
      }),
      { numRuns: 150 },
    );
    stillWorks();
  }, 60_000);
});
