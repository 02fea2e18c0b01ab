import { base64ToBytes, hexToBytes, MAX_LORAWAN_PAYLOAD_BYTES } from '../payload';

export interface RawCommandInput {
  payload_hex?: string;
  payload_base64?: string;
  payload_ASCII?: string;
}

/** The member of a raw command that carries the payload, and why it cannot be used. */
export type PayloadProblem = { field: 'payload_hex' | 'payload_base64' | 'payload_ASCII' | 'payload'; message: string };

/**
 * The bytes of a raw command: exactly one of hex, Base64 or ASCII. ASCII is printable text, with
 * `\xNN` for any other byte (the form the service shows payloads in).
 */
export function rawCommandBytes(input: RawCommandInput): Uint8Array | PayloadProblem {
  const given = (['payload_hex', 'payload_base64', 'payload_ASCII'] as const).flatMap((field) => {
    const value = input[field];
    return value === undefined ? [] : [{ field, value }];
  });
  const [only, ...more] = given;
  if (!only || more.length > 0) return { field: 'payload', message: 'send exactly one of payload_hex, payload_base64 and payload_ASCII' };
  const { field, value } = only;
  let bytes: Uint8Array | null;
  if (field === 'payload_hex') bytes = hexToBytes(value);
  else if (field === 'payload_base64') bytes = base64ToBytes(value);
  else bytes = asciiToBytes(value);
  if (!bytes)
    return {
      field,
      message: `${field} is not valid ${field === 'payload_hex' ? 'hexadecimal' : field === 'payload_base64' ? 'Base64' : 'ASCII (printable characters and \\xNN escapes)'}`,
    };
  if (bytes.length === 0) return { field, message: `${field} is empty` };
  if (bytes.length > MAX_LORAWAN_PAYLOAD_BYTES) return { field, message: `${field} is ${bytes.length} bytes; at most ${MAX_LORAWAN_PAYLOAD_BYTES}` };
  return bytes;
}

export function asciiToBytes(text: string): Uint8Array | null {
  const out: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (text[i] === '\\') {
      const hex = /^x([0-9a-fA-F]{2})/.exec(text.slice(i + 1, i + 4))?.[1];
      if (hex === undefined) return null;
      out.push(parseInt(hex, 16));
      i += 3;
    } else if (code >= 0x20 && code < 0x7f) out.push(code);
    else return null;
  }
  return Uint8Array.from(out);
}
