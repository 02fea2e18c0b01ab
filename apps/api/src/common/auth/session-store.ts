export interface StoredSession {
  accountId: number;
  createdAt: Date;
  lastSeenAt: Date;
  expiresAt: Date;
}

/**
 * Server-side session storage shared by every api instance: PostgreSQL by default, Redis when
 * configured. Keys are the digest of the session id; the id itself lives only in the cookie.
 */
export abstract class SessionStore {
  abstract create(digest: Buffer, accountId: number, expiresAt: Date): Promise<StoredSession>;
  abstract get(digest: Buffer): Promise<StoredSession | null>;
  abstract touch(digest: Buffer, session: StoredSession, expiresAt: Date): Promise<void>;
  abstract destroy(digest: Buffer): Promise<void>;
  /** Ends every session of the account except `keep`. */
  abstract destroyAllForAccount(accountId: number, keep: Buffer | null): Promise<void>;
}
