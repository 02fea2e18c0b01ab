import type { KeyRight, OrgRole, TokenType } from '@dts/domain';

/** The organisation a request acts in (docs/api.md §20). */
export interface ActingOrganisation {
  id: number;
  name: string;
}

/** Who is calling, as the auth guard established it. */
export interface AuthPrincipal {
  /**
   * The account whose objects the request acts on: the person's own, or the organisation it acts
   * in (`organisation`). Every owned row is found by this id.
   */
  accountId: number;
  username: string;
  /** The person calling: themselves on a session, the key's maker on an organisation's key. */
  userId: number;
  /** The organisation acted in; null: the person's own account. */
  organisation: ActingOrganisation | null;
  /** What the caller may do in `accountId`: 'owner' in their own account. */
  role: OrgRole;
  isAdmin: boolean;
  via: 'session' | 'token' | 'ingest-secret';
  /** Set when `via` is 'token'. */
  tokenType: TokenType | null;
  tokenUid: number | null;
  /** What the token may do; null: all its type allows (and always null for a session). */
  rights: KeyRight[] | null;
  /** The token's own expiry (`until`), when `via` is 'token' and it has one. */
  tokenUntil: Date | null;
  /** Set when `via` is 'session': the session's digest, to end or keep it. */
  sessionDigest: Buffer | null;
  sessionExpiresAt: Date | null;
  sessionCreatedAt: Date | null;
  sessionLastSeenAt: Date | null;
}

/** The principal acting in the person's own account, whatever organisation it was established in. */
export function asPerson(principal: AuthPrincipal, username: string): AuthPrincipal {
  return { ...principal, accountId: principal.userId, username, organisation: null, role: 'owner' };
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
