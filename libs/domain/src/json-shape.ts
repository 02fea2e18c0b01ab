/*
 * The shape limits of JSON the service takes from outside: every JSON body (the api's body parsers)
 * and JSON carried inside other text (a CSV import's `tags` cell), so that neither path takes what
 * the other refuses.
 */

/** Deeper JSON than any route takes; past it, recursive validators would exhaust the stack (a 500). */
export const JSON_MAX_DEPTH = 64;
/**
 * More members in one object than any route takes (the widest DTO has 20; a network's uplink
 * message a few dozen per object). class-transformer's cost grows with the square of an object's
 * members: 60,000 of them in a 1 MB body held the event loop for ~3 s before this bound.
 */
export const JSON_MAX_MEMBERS = 500;
/** More elements in one array than any route takes (ingestion: 1,000 items; detector batches: thousands). */
export const JSON_MAX_ELEMENTS = 20_000;

export type ShapeProblem = 'depth' | 'wide' | 'long';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * Judges a JSON body's shape on its raw bytes, before it is parsed: nesting deeper than
 * JSON_MAX_DEPTH, an object of more than JSON_MAX_MEMBERS members or an array of more than
 * JSON_MAX_ELEMENTS elements. One pass over the bytes, stopping at the first problem, so a hostile
 * body costs a few kilobytes of scanning instead of a parse of a megabyte (a 200,000-level array
 * took 160 ms to parse, a 60,000-member object 90 ms, each holding the event loop). Text that is
 * not JSON is left to the parser to refuse.
 */
export function jsonShapeProblem(bytes: Uint8Array): ShapeProblem | null {
  // Byte by byte: the structural characters are ASCII, and no byte of a UTF-8 multi-byte sequence
  // is below 0x80, so they are never mistaken for one.
  const counts: number[] = [];
  const objects: boolean[] = [];
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i] ?? 0; // always present: i < length
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
      continue;
    }
    switch (c) {
      case QUOTE:
        inString = true;
        break;
      case 0x7b: // {
      case 0x5b: // [
        if (counts.length >= JSON_MAX_DEPTH) return 'depth';
        counts.push(0);
        objects.push(c === 0x7b);
        break;
      case 0x7d: // }
      case 0x5d: // ]
        counts.pop();
        objects.pop();
        break;
      case 0x3a: {
        // one member of the object
        const top = counts.length - 1;
        if (objects[top] === true && (counts[top] = (counts[top] ?? 0) + 1) > JSON_MAX_MEMBERS) return 'wide';
        break;
      }
      case 0x2c: {
        // one more element of the array
        const top = counts.length - 1;
        if (objects[top] === false && (counts[top] = (counts[top] ?? 0) + 1) >= JSON_MAX_ELEMENTS) return 'long';
        break;
      }
      default:
        break;
    }
  }
  return null;
}
