import type { Request } from 'express';
import { ApiException } from '../http/api.exception';

/**
 * The API token a request carries, from `Authorization: Bearer <t>`, `Authorization: <t>` or
 * `token: <t>`. Two different tokens are 400 CONFLICTING_CREDENTIALS (docs/api.md §3).
 */
export function presentedToken(req: Request): string | null {
  const found = new Set<string>();
  const authorization = req.headers.authorization;
  if (typeof authorization === 'string' && authorization.trim()) {
    const m = /^bearer\s+(.+)$/i.exec(authorization.trim());
    found.add((m?.[1] ?? authorization).trim());
  }
  const header = req.headers.token;
  if (typeof header === 'string' && header.trim()) found.add(header.trim());
  if (found.size > 1) throw ApiException.of('CONFLICTING_CREDENTIALS', 'the request carries two different API tokens', 'Authorization');
  const [only] = found;
  return only ?? null;
}
