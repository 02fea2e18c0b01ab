import { createHash, timingSafeEqual } from 'node:crypto';
import type { Secret } from '../config/secret';

export type MetricsAccess = 'open' | 'AUTH_REQUIRED' | 'INVALID_TOKEN';

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * Who may scrape: anyone when METRICS_TOKEN is unset; else exactly `Authorization: Bearer <token>`.
 * Account API tokens never open it: the scrape token is its own credential. The comparison is of
 * fixed-length digests, so it takes the same time whatever the length or content of a guess.
 */
export function metricsAccess(authorization: string | string[] | undefined, token: Secret | null): MetricsAccess {
  if (token === null) return 'open';
  if (typeof authorization !== 'string' || authorization.trim() === '') return 'AUTH_REQUIRED';
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  const given = match?.[1];
  return timingSafeEqual(digest(given ?? ''), digest(token.reveal())) && given !== undefined ? 'open' : 'INVALID_TOKEN';
}
