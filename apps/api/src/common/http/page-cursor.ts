import { ApiException } from './api.exception';

/** A keyset page's `next_cursor`: the last row's key values as JSON, base64url, opaque to clients. */
export function encodeCursor(values: readonly unknown[]): string {
  return Buffer.from(JSON.stringify(values)).toString('base64url');
}

/** What a cursor that is not one of this route's is answered: 400 naming `cursor`. */
export function badCursor(): ApiException {
  return ApiException.validation('cursor', 'cursor must be a next_cursor this route returned');
}

/**
 * The key values of a cursor made by encodeCursor: an array of `length` values, else badCursor.
 * Each route then checks the values' own shapes (a client can send anything).
 */
export function cursorValues(cursor: string, length: number): unknown[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    parsed = null;
  }
  if (!Array.isArray(parsed) || parsed.length !== length) throw badCursor();
  return parsed;
}
