import { asciiToBytes, rawCommandBytes } from './command-payload';
import { checkParams, commandsFor } from './encoders';

const hex = (b: Uint8Array | object) => (b instanceof Uint8Array ? Buffer.from(b).toString('hex') : b);

describe('raw command payloads', () => {
  it('takes exactly one encoding', () => {
    expect(hex(rawCommandBytes({ payload_hex: '01FF' }))).toBe('01ff');
    expect(hex(rawCommandBytes({ payload_base64: 'Af8=' }))).toBe('01ff');
    expect(hex(rawCommandBytes({ payload_ASCII: 'OK\\x00' }))).toBe('4f4b00');
    expect(rawCommandBytes({})).toMatchObject({ field: 'payload' });
    expect(rawCommandBytes({ payload_hex: '01', payload_base64: 'AQ==' })).toMatchObject({ field: 'payload' });
    expect(rawCommandBytes({ payload_hex: '0' })).toMatchObject({ field: 'payload_hex' });
    expect(rawCommandBytes({ payload_hex: '' })).toMatchObject({ field: 'payload_hex', message: expect.stringContaining('empty') });
    expect(rawCommandBytes({ payload_hex: 'AA'.repeat(243) })).toMatchObject({ field: 'payload_hex', message: expect.stringContaining('243 bytes') });
  });

  it('reads ASCII with escapes and refuses other characters', () => {
    expect(asciiToBytes('A\\x7f')).toEqual(Uint8Array.from([0x41, 0x7f]));
    expect(asciiToBytes('é')).toBeNull();
    expect(asciiToBytes('\\xZZ')).toBeNull();
  });
});

describe('named commands', () => {
  it('encodes the tracker family’s commands (vectors)', () => {
    const byName = Object.fromEntries(commandsFor('DT Tracker').map((c) => [c.name, c]));
    expect(hex(byName.set_interval.encode({ seconds: 3600 }))).toBe('0100000e10');
    expect(hex(byName.request_position.encode({}))).toBe('02');
    expect(hex(byName.set_gps.encode({ enabled: false }))).toBe('0300');
    expect(hex(byName.reboot.encode({}))).toBe('ff');
    expect(byName.set_interval.port).toBe(10);
  });

  it('encodes the camera trap and LPP commands', () => {
    const cam = Object.fromEntries(commandsFor('DT Camera Trap').map((c) => [c.name, c]));
    expect(hex(cam.take_photo.encode({}))).toBe('10');
    expect(hex(cam.set_pir.encode({ enabled: true }))).toBe('1101');
    const [lpp] = commandsFor('Cayenne LPP');
    expect(hex(lpp.encode({ channel: 3, value: 1 }))).toBe('030101');
  });

  it('offers nothing for a family without an encoder', () => {
    expect(commandsFor('raw')).toEqual([]);
    expect(commandsFor(null)).toEqual([]);
    expect(commandsFor('constructor')).toEqual([]);
  });

  it('checks parameters against the schema', () => {
    const [setInterval] = commandsFor('DT Tracker');
    expect(checkParams(setInterval, { seconds: 60 })).toEqual({ seconds: 60 });
    expect(checkParams(setInterval, {})).toMatchObject({ field: 'params.seconds' });
    expect(checkParams(setInterval, { seconds: 10 })).toMatchObject({ field: 'params.seconds' });
    expect(checkParams(setInterval, { seconds: 60.5 })).toMatchObject({ field: 'params.seconds' });
    expect(checkParams(setInterval, { seconds: 60, extra: 1 })).toMatchObject({ field: 'params.extra' });
    expect(checkParams(setInterval, [1])).toMatchObject({ field: 'params' });
  });
});
