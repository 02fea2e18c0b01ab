import { newQuickJSWASMModule } from 'quickjs-emscripten';
import { CodecSandbox } from './codec-sandbox';

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
    sandbox = new CodecSandbox(await newQuickJSWASMModule(), () => newQuickJSWASMModule());
  });
  afterAll(() => sandbox.close());

  it('runs a vendor codec and maps its data to measurements', () => {
    const r = sandbox.decode('k', LHT65_LIKE, Uint8Array.from([0x08, 0x66, 0x01, 0xc8]), 2);
    expect(r).toEqual({
      decoded: { temperature: 21.5, humidity: 45.6, latitude: 52.1, longitude: 5.1, fport: 2 },
      valid: true,
      error: null,
      measurements: { temperature: 21.5, humidity: 45.6, battery_voltage: null, battery_percent: null, lat: 52.1, lon: 5.1, alt: null, firmware_version: null },
    });
    expect(sandbox.decode('k', LHT65_LIKE, Uint8Array.from([1, 2, 3, 4, 5]), 2).decoded._warnings).toEqual(['trailing bytes']);
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

  it('checks a script before it is stored', () => {
    expect(sandbox.check(LHT65_LIKE)).toBeNull();
    expect(sandbox.check('function encodeDownlink() {}')).toMatch(/decodeUplink/);
    expect(sandbox.check('function (')).toMatch(/SyntaxError/);
    expect(sandbox.check('for (;;) {}')).toMatch(/time limit/);
    expect(sandbox.check('x'.repeat(70_000))).toMatch(/exceeds/);
  });
});
