/**
 * Device EUIs (docs/api.md §2): 16 hexadecimal characters, accepted in either case and with `-` or `:`
 * separators, always stored and returned upper case without separators.
 */
export type Eui = string & { readonly __brand: 'Eui' };

const SEPARATED = /^[0-9a-fA-F]{2}([-:]?)(?:[0-9a-fA-F]{2}\1){6}[0-9a-fA-F]{2}$/;

/** Returns the canonical EUI, or null when the input is not one. */
export function normalizeEui(input: unknown): Eui | null {
  if (typeof input !== 'string' || input.length > 23) return null;
  if (!SEPARATED.test(input)) return null;
  return input.replace(/[-:]/g, '').toUpperCase() as Eui;
}

export function isEui(input: unknown): input is Eui {
  return typeof input === 'string' && /^[0-9A-F]{16}$/.test(input);
}
