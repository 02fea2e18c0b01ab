import fc from 'fast-check';
import { base64ToBytes, bytesToAscii, bytesToBase64, bytesToHex, hexToBytes } from './payload';

describe('payload encodings', () => {
  it('round-trips hex and base64', () => {
    const bytes = hexToBytes('01ff7f20')!;
    expect(bytesToHex(bytes)).toBe('01FF7F20');
    expect(bytesToBase64(bytes)).toBe('Af9/IA==');
    expect(bytesToHex(base64ToBytes('Af9/IA==')!)).toBe('01FF7F20');
  });

  it('refuses malformed input', () => {
    expect(hexToBytes('abc')).toBeNull();
    expect(hexToBytes('zz')).toBeNull();
    expect(base64ToBytes('A===')).toBeNull();
    expect(base64ToBytes('not base64!')).toBeNull();
  });

  it('shows non-printable bytes and the backslash escaped', () => {
    expect(bytesToAscii(Uint8Array.from([0x4f, 0x4b, 0x00, 0x5c, 0xff]))).toBe('OK\\x00\\x5c\\xff');
  });

  // The encodings are plain TypeScript (the console runs them in the browser): Node's Buffer is the oracle.
  it('agrees with Node Buffer on any bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
        const b64 = Buffer.from(bytes).toString('base64');
        const hex = Buffer.from(bytes).toString('hex');
        expect(bytesToBase64(bytes)).toBe(b64);
        expect(bytesToHex(bytes)).toBe(hex.toUpperCase());
        expect(Array.from(base64ToBytes(b64)!)).toEqual(Array.from(bytes));
        expect(Array.from(hexToBytes(hex)!)).toEqual(Array.from(bytes));
      }),
    );
  });
});
