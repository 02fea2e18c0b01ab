import { asciiToBytes, rawCommandBytes } from './command-payload';

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
