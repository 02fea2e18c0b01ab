import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import type { CodecExample } from '@dts/domain';
import { CODEC_LIMITS, loadDeadlineMs, newCodecModule } from './codec-limits';
import { CodecSandbox } from './codec-sandbox';
import { largeCodecScript } from './large-codec';

const VENDOR = join(__dirname, '../../../../test-data/lorawan-devices/vendor');

const LHT65_LIKE = `
function decodeUplink(input) {
  var b = input.bytes;
  if (b.length < 4) return { errors: ['too short'] };
  return {
    data: { temperature: ((b[0] << 24 >> 16) | b[1]) / 100, humidity: ((b[2] << 8) | b[3]) / 10, latitude: 52.1, longitude: 5.1, fport: input.fPort },
    warnings: b.length > 4 ? ['trailing bytes'] : [],
    errors: [],
  };
}`;

describe('CodecSandbox', () => {
  let sandbox: CodecSandbox;
  beforeAll(async () => {
    sandbox = new CodecSandbox(await newCodecModule(), () => newCodecModule());
  });
  afterAll(() => sandbox.close());

  it('runs a vendor codec and maps its data to measurements', () => {
    const r = sandbox.decode('k', LHT65_LIKE, Uint8Array.from([0x08, 0x66, 0x01, 0xc8]), 2);
    expect(r).toEqual({
      decoded: { temperature: 21.5, humidity: 45.6, latitude: 52.1, longitude: 5.1, fport: 2 },
      valid: true,
      error: null,
      measurements: { temperature: 21.5, humidity: 45.6, battery_voltage: null, battery_percent: null, lat: 52.1, lon: 5.1, alt: null, firmware_version: null },
      warnings: [],
    });
    expect(sandbox.decode('k', LHT65_LIKE, Uint8Array.from([1, 2, 3, 4, 5]), 2).warnings).toEqual(['trailing bytes']);
  });

  it('runs a codec’s normalizeUplink on its data and reads the normalized payload first (Milesight EM300-TH, test-data)', () => {
    const em300 = readFileSync(join(__dirname, '../../../../test-data/lorawan-devices/vendor/milesight-iot/em300-th.js'), 'utf8');
    // The YAML example's bytes: battery 50 %, 20 °C, 30 %.
    const r = sandbox.decode('em300', em300, Uint8Array.from([0x01, 0x75, 0x32, 0x03, 0x67, 0xc8, 0x00, 0x04, 0x68, 0x3c]), 1);
    expect(r).toMatchObject({ valid: true, decoded: { battery: 50, temperature: 20, humidity: 30 } });
    expect(r.measurements).toMatchObject({ temperature: 20, humidity: 30, battery_percent: 50, battery_voltage: null });
    // Only the normalized payload names the temperature here: it is read.
    const normalizedOnly = `function decodeUplink(i) { return { data: { t: i.bytes[0] } }; }
      function normalizeUplink(i) { i.data.t = -1; return { data: { air: { temperature: 17.5 } } }; }`;
    const n = sandbox.decode('norm', normalizedOnly, Uint8Array.from([9]), 1);
    expect(n).toMatchObject({ valid: true, decoded: { t: 9 }, measurements: { temperature: 17.5 } });
    // A normalizeUplink that throws costs the measurements it would have given, not the uplink.
    const throwing = `function decodeUplink(i) { return { data: { temperature: 21 } }; } function normalizeUplink() { throw new Error('no'); }`;
    expect(sandbox.decode('throws', throwing, Uint8Array.from([1]), 1)).toMatchObject({ valid: true, measurements: { temperature: 21 } });
  });

  it('makes the codec’s own errors an invalid result', () => {
    expect(sandbox.decode('k', LHT65_LIKE, Uint8Array.from([1]), 1)).toMatchObject({ valid: false, error: 'too short' });
  });

  it.each([
    ['throws', 'function decodeUplink() { throw new TypeError("bad byte"); }', /TypeError: bad byte/],
    ['loops for ever', 'function decodeUplink() { for (;;) {} }', /time limit/],
    ['allocates without end', 'function decodeUplink() { var a = []; for (;;) a.push(new Array(100000).fill(7)); }', /memory limit|time limit/],
    ['recurses without end', 'function decodeUplink(i) { return decodeUplink(i); }', /RangeError|stack|memory|InternalError/i],
    ['returns junk', 'function decodeUplink() { return 42; }', /no object/],
    ['returns no data', 'function decodeUplink() { return { warnings: [] }; }', /no data object/],
    ['reaches for Node', 'function decodeUplink() { return { data: { v: require("fs") } }; }', /ReferenceError/],
  ])('survives a codec that %s', (_what, script, error) => {
    const r = sandbox.decode(`bad-${_what}`, script, Uint8Array.from([1, 2]), 1);
    expect(r.valid).toBe(false);
    expect(r.error).toMatch(error);
    // and the sandbox still works afterwards
    expect(sandbox.decode('k', LHT65_LIKE, Uint8Array.from([0x08, 0x66, 0x01, 0xc8]), 2).valid).toBe(true);
  });

  it('holds a thread’s QuickJS memory within its bound, which QuickJS’s own per-runtime limit does not', () => {
    // QuickJS counts 8 bytes a block in this build, so 100 arrays of 800 KB pass its 16 MiB limit;
    // the module's WebAssembly memory cannot grow past moduleMemoryBytes.
    const module = sandbox['quickjs']!;
    const r = sandbox.decode('hoard', 'function decodeUplink() { var a = []; for (;;) a.push(new Array(100000).fill(7)); }', Uint8Array.from([1]), 1);
    expect(r).toMatchObject({ valid: false, error: expect.stringMatching(/memory limit|time limit/) });
    expect(module.getWasmMemory().buffer.byteLength).toBeLessThanOrEqual(CODEC_LIMITS.moduleMemoryBytes);
    expect(sandbox.decode('k', LHT65_LIKE, Uint8Array.from([0x08, 0x66, 0x01, 0xc8]), 2).valid).toBe(true);
  });

  it('encodes downlinks with encodeDownlink, and says why it cannot', () => {
    const codec = `${LHT65_LIKE}
      function encodeDownlink(input) {
        if (input.data.command === 'set_interval') return { bytes: [1, input.data.seconds >> 8, input.data.seconds & 255], fPort: 5 };
        if (input.data.command === 'bad') return { bytes: [300] };
        return { errors: ['unknown command ' + input.data.command] };
      }`;
    expect(sandbox.encode('enc', codec, { command: 'set_interval', seconds: 600 })).toEqual({ bytes: Uint8Array.from([1, 2, 88]), fPort: 5 });
    expect(sandbox.encode('enc', codec, { command: 'nope' })).toBe('unknown command nope');
    expect(sandbox.encode('enc', codec, { command: 'bad' })).toMatch(/byte array/);
    expect(sandbox.encode('dec-only', LHT65_LIKE, { command: 'x' })).toMatch(/no encodeDownlink/);
  });

  it('takes an encoder’s fPort, else a `port` as number or decimal text (Tektelic’s), else none', () => {
    const codec = `${LHT65_LIKE}
      function encodeDownlink(input) { return input.data; }`;
    const port = (answer: Record<string, unknown>) => {
      const encoded = sandbox.encode('ports', codec, { bytes: [1], ...answer });
      return typeof encoded === 'string' ? encoded : encoded.fPort;
    };
    expect(port({ fPort: 7 })).toBe(7);
    expect(port({ port: '100' })).toBe(100);
    expect(port({ port: 100 })).toBe(100);
    expect(port({ fPort: 7, port: '100' })).toBe(7);
    // fPort is a number in the convention; a wrong one is not made up for by `port`.
    expect(port({ fPort: 0, port: '100' })).toBeNull();
    for (const bad of [{}, { port: '0' }, { port: '224' }, { port: '1e2' }, { port: ' 100' }, { fPort: 1.5 }, { fPort: '7' }])
      expect({ bad, port: port(bad) }).toEqual({ bad, port: null });
  });

  it('passes data to encodeDownlink exactly as given: a strict vendor encoder (Tektelic’s) encodes its own example', () => {
    const encoder = readFileSync(join(VENDOR, 'tektelic/encoder_smart_room_sensor.js'), 'utf8');
    const script = `function decodeUplink() { return { data: {} }; }\n${encoder}`;
    expect(sandbox.encode('tektelic', script, { ticks: { per_light: { write: 10 } } })).toEqual({ bytes: Uint8Array.from([165, 0, 10]), fPort: 100 });
    // One member more, as a command name merged into the data was: the encoder throws.
    expect(sandbox.encode('tektelic', script, { command: 'ticks', ticks: { per_light: { write: 10 } } })).toMatch(/TypeError/);
  });

  it('checks a script before it is stored', () => {
    expect(sandbox.check(LHT65_LIKE)).toBeNull();
    expect(sandbox.check('function encodeDownlink() {}')).toMatch(/decodeUplink/);
    expect(sandbox.check('function (')).toMatch(/SyntaxError/);
    expect(sandbox.check('for (;;) {}')).toMatch(/time limit/);
    // Scripts up to 512 KiB: Laird's 100 KB codec is one (it was refused at 64 KiB).
    expect(sandbox.check(readFileSync(join(VENDOR, 'laird/rs1xx-temp-rh-sensor.js'), 'utf8'))).toBeNull();
    expect(sandbox.check('x'.repeat(CODEC_LIMITS.maxScriptBytes + 1))).toMatch(/exceeds 524288 bytes/);
  });

  it('loads a 512 KiB script of real vendor code within its deadline and memory, and decodes with it', () => {
    const script = largeCodecScript(CODEC_LIMITS.maxScriptBytes);
    expect(Buffer.byteLength(script)).toBeGreaterThan(500_000);
    expect(loadDeadlineMs(script)).toBeGreaterThanOrEqual(690);
    expect(sandbox.check(script)).toBeNull();
    // Laird's first YAML example, through the large script.
    const r = sandbox.decode('large', script, Uint8Array.from([1, 0, 33, 52, 67, 98, 5, 1, 0, 0, 1]), 1);
    expect(r).toMatchObject({ valid: true, decoded: { msgType: 'Laird_Internal_TH', temperature: 98.67, humidity: 52.33 } });
  });

  it('tells a top-level loop at load by the load deadline, which grows with the script', () => {
    const padded = `${'// padding\n'.repeat(10_000)}for (;;) {}`;
    const started = Date.now();
    expect(sandbox.check(padded)).toMatch(new RegExp(`loading exceeded its time limit of ${loadDeadlineMs(padded)} ms`));
    expect(Date.now() - started).toBeLessThan(3 * loadDeadlineMs(padded) + 500);
  });

  describe('trial: a draft script and a codec’s examples, nothing cached', () => {
    const wind = readFileSync(join(VENDOR, 'example/windsensor.js'), 'utf8');
    const yaml = parse(readFileSync(join(VENDOR, 'example/windsensor-codec.yaml'), 'utf8')) as Record<
      string,
      { examples: { description: string; input: CodecExample['input']; output: unknown; normalizedOutput?: unknown }[] }
    >;
    const examples: CodecExample[] = [
      ...yaml.uplinkDecoder!.examples.map((e) => ({
        kind: 'uplink' as const,
        description: e.description,
        input: e.input,
        output: e.output,
        normalized_output: e.normalizedOutput ?? null,
      })),
      ...yaml.downlinkEncoder!.examples.map((e) => ({
        kind: 'downlink_encode' as const,
        description: e.description,
        input: e.input,
        output: e.output,
        normalized_output: null,
      })),
      ...yaml.downlinkDecoder!.examples.map((e) => ({
        kind: 'downlink_decode' as const,
        description: e.description,
        input: e.input,
        output: e.output,
        normalized_output: null,
      })),
    ];

    it('runs every example of TTN’s wind sensor codec YAML, normalizedOutput included: all pass', () => {
      const t = sandbox.trial(wind, { bytes: Uint8Array.from([0, 32]), fPort: 1 }, examples, 1000);
      expect(t.problem).toBeNull();
      expect(t.decoded).toMatchObject({ output: { data: { direction: 'N', speed: 32 } }, result: { valid: true } });
      expect(t.examples.map((r) => r?.passed)).toEqual(examples.map(() => true));
      expect(t.usedMs).toBeGreaterThan(0);
    });

    it('names the first difference of a failing example, and goes on after a codec that hits a limit', () => {
      const wrong = wind.replace('direction: directions[input.bytes[0]]', "direction: 'S'");
      expect(wrong).not.toBe(wind);
      const t = sandbox.trial(wrong, null, examples.slice(0, 2), 1000);
      expect(t.examples[0]).toMatchObject({ passed: false, message: 'output.data.direction: expected "N", got "S"' });
      const looping = `function decodeUplink(i) { if (i.bytes[0] === 0) for (;;) {} return { data: { direction: 'E', speed: i.bytes[1] } }; }`;
      const l = sandbox.trial(looping, null, examples.slice(0, 2), 1000);
      expect(l.examples[0]).toMatchObject({ passed: false, message: 'codec: exceeded its time limit of 50 ms' });
      expect(l.examples[1]).toMatchObject({ passed: true });
    });

    it('stops at the budget (unrun examples are null) and says why a script cannot serve', () => {
      expect(sandbox.trial(wind, null, examples, 0).examples).toEqual(examples.map(() => null));
      expect(sandbox.trial('function (', null, examples, 1000)).toMatchObject({ problem: expect.stringMatching(/SyntaxError/), decoded: null });
      expect(sandbox.trial('var x = 1;', null, [], 1000).problem).toMatch(/decodeUplink/);
      // A codec without the function an example needs fails that example only.
      expect(sandbox.trial('function decodeUplink() { return { data: {} }; }', null, examples.slice(-1), 1000).examples[0]).toMatchObject({
        passed: false,
        message: 'the codec has no decodeDownlink function',
      });
    });
  });
});
