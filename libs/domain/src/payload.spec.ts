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
});
