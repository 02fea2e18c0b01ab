/**
 * Payload encodings. LoRaWAN payloads travel as Base64 on the networks' APIs, are shown as hex to
 * people, and commands also accept ASCII text; one byte buffer converts to all three.
 */
export const MAX_LORAWAN_PAYLOAD_BYTES = 242;

export function hexToBytes(hex: string): Uint8Array | null {
  if (hex.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(hex)) return null;
  return Uint8Array.from(Buffer.from(hex, 'hex'));
}

export function base64ToBytes(b64: string): Uint8Array | null {
  if (!/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(b64)) return null;
  return Uint8Array.from(Buffer.from(b64, 'base64'));
}

export function bytesToHex(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('hex').toUpperCase();
}

export function bytesToBase64(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('base64');
}

/** Printable ASCII shows as itself; any other byte as `\xNN`, so the text form is never lossy. */
export function bytesToAscii(bytes: Uint8Array): string {
  let out = '';
  for (const b of bytes) out += b >= 0x20 && b < 0x7f && b !== 0x5c ? String.fromCharCode(b) : `\\x${b.toString(16).padStart(2, '0')}`;
  return out;
}
