/** Deeper JSON than any route takes; past it, recursive validators would exhaust the stack (a 500). */
export const JSON_MAX_DEPTH = 64;

export interface RefusedMember {
  /** The member's dotted path; '' for the value itself (or a member named '' at the top). */
  path: string;
  reason: 'name' | 'nul' | 'depth';
}

/**
 * The first member of a parsed body or query that no route may receive: one whose name
 * `refusedName` rejects, a name or string holding U+0000 (PostgreSQL text and jsonb cannot store
 * it, so the query would fail: a 500), or nesting past JSON_MAX_DEPTH.
 */
export function findRefusedMember(value: unknown, refusedName: (key: string) => boolean, path = '', depth = 0): RefusedMember | null {
  if (typeof value === 'string') return value.includes('\u0000') ? { path, reason: 'nul' } : null;
  if (value === null || typeof value !== 'object') return null;
  if (depth >= JSON_MAX_DEPTH) return { path, reason: 'depth' };
  for (const key of Object.keys(value)) {
    // By depth, not by an empty path: '' is a member name a body may use.
    const here = depth === 0 ? key : `${path}.${key}`;
    if (key.includes('\u0000')) return { path: here, reason: 'nul' };
    if (refusedName(key)) return { path: here, reason: 'name' };
    const found = findRefusedMember((value as Record<string, unknown>)[key], refusedName, here, depth + 1);
    if (found) return found;
  }
  return null;
}
