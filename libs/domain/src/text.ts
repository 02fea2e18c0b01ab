/**
 * Any untrusted JSON value as bounded text, for messages that quote what a network, a codec or a
 * detector sent. `String()` throws on an object whose `toString` is not a function (`{"toString":
 * 0}` is valid JSON), so objects and arrays are shown as their JSON.
 */
export function textOf(value: unknown, maxLength = 500): string {
  const text = typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);
  return text.length > maxLength ? wellFormed(text.slice(0, maxLength)) : text;
}

/** Text PostgreSQL can store (no U+0000, no lone surrogate, as a cut can leave): each such unit becomes U+FFFD. */
export function wellFormed(text: string): string {
  return text.replace(/\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');
}
