/**
 * What a codec's decoded output may be, checked inside the codec worker thread before anything
 * crosses to the event loop or the database: at most DECODED_MAX_BYTES of JSON, nested at most
 * DECODED_MAX_DEPTH levels, and only text PostgreSQL's jsonb can store (no U+0000, no lone UTF-16
 * surrogate: either fails the whole statement, and so every other uplink of the delivery).
 */
export const DECODED_MAX_BYTES = 64 * 1024;
export const DECODED_MAX_DEPTH = 32;

/**
 * Why the JSON text a codec produced cannot be stored, or null. Depth is measured on the text
 * itself, iteratively, so that 5,000 nested levels cost one pass and never a recursive parse.
 */
export function decodedTextProblem(text: string): string | null {
  if (text.length > DECODED_MAX_BYTES || Buffer.byteLength(text) > DECODED_MAX_BYTES) {
    return `the decoded output exceeds ${DECODED_MAX_BYTES / 1024} KiB`;
  }
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) {
        // An escape: \u0000 and escaped lone surrogates are what jsonb refuses.
        if (text.charCodeAt(i + 1) === 0x75) {
          const code = parseInt(text.slice(i + 2, i + 6), 16);
          if (code === 0) return 'the decoded output contains a NUL character';
          if (code >= 0xd800 && code <= 0xdbff) {
            const next = text.slice(i + 6, i + 8) === '\\u' ? parseInt(text.slice(i + 8, i + 12), 16) : text.charCodeAt(i + 6);
            if (!(next >= 0xdc00 && next <= 0xdfff)) return 'the decoded output contains a lone UTF-16 surrogate';
            if (text.slice(i + 6, i + 8) === '\\u') i += 6;
          } else if (code >= 0xdc00 && code <= 0xdfff) return 'the decoded output contains a lone UTF-16 surrogate';
          i += 5;
        } else i++;
      } else if (c === 0x22) inString = false;
      else if (c === 0) return 'the decoded output contains a NUL character';
      else if (c >= 0xd800 && c <= 0xdbff) {
        const next = text.charCodeAt(i + 1);
        if (!(next >= 0xdc00 && next <= 0xdfff)) return 'the decoded output contains a lone UTF-16 surrogate';
        i++;
      } else if (c >= 0xdc00 && c <= 0xdfff) return 'the decoded output contains a lone UTF-16 surrogate';
      continue;
    }
    if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > DECODED_MAX_DEPTH) return `the decoded output is nested deeper than ${DECODED_MAX_DEPTH} levels`;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return null;
}
