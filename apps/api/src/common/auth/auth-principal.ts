import type { TokenType } from '@dts/domain';

/** Who is calling, as the auth guard established it. */
export interface AuthPrincipal {
  accountId: number;
  username: string;
  isAdmin: boolean;
  via: 'session' | 'token' | 'ingest-secret';
  /** Set when `via` is 'token'. */
  tokenType: TokenType | null;
  tokenUid: number | null;
  /** The token's own expiry (`until`), when `via` is 'token' and it has one. */
  tokenUntil: Date | null;
  /** Set when `via` is 'session': the session's digest, to end or keep it. */
  sessionDigest: Buffer | null;
  sessionExpiresAt: Date | null;
  sessionCreatedAt: Date | null;
  sessionLastSeenAt: Date | null;
}

/** Sessions and master tokens may do what app tokens may not (docs/api.md §3). */
export function isMasterCredential(principal: AuthPrincipal): boolean {
  return principal.via === 'session' || principal.tokenType === 'master';
}

declare module 'express-serve-static-core' {
  interface Request {
    id?: string;
    auth?: AuthPrincipal;
  }
}
