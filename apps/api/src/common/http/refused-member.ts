import { JSON_MAX_DEPTH, JSON_MAX_MEMBERS } from '@dts/domain';

export interface RefusedMember {
  /** The member's dotted path; '' for the value itself (or a member named '' at the top). */
  path: string;
  reason: 'name' | 'nul' | 'depth' | 'wide';
}

/**
 * The first member of a parsed body or query that no route may receive: one whose name
 * `refusedName` rejects, a name or string holding U+0000 (PostgreSQL text and jsonb cannot store
 * it, so the query would fail: a 500), nesting past JSON_MAX_DEPTH, or an object with more than
 * JSON_MAX_MEMBERS members (counted before any member is looked at, so a wide body costs one
 * `Object.keys`).
 */
export function findRefusedMember(value: unknown, refusedName: (key: string) => boolean, path = '', depth = 0): RefusedMember | null {
  if (typeof value === 'string') return value.includes('\u0000') ? { path, reason: 'nul' } : null;
  if (value === null || typeof value !== 'object') return null;
  if (depth >= JSON_MAX_DEPTH) return { path, reason: 'depth' };
  const keys = Object.keys(value);
  if (!Array.isArray(value) && keys.length > JSON_MAX_MEMBERS) return { path, reason: 'wide' };
  for (const key of keys) {
    // By depth, not by an empty path: '' is a member name a body may use.
    const here = depth === 0 ? key : `${path}.${key}`;
    if (key.includes('\u0000')) return { path: here, reason: 'nul' };
    if (refusedName(key)) return { path: here, reason: 'name' };
    const found = findRefusedMember((value as Record<string, unknown>)[key], refusedName, here, depth + 1);
    if (found) return found;
  }
  return null;
}
