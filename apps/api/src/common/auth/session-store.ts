import type { SessionClient } from '@dts/persistence';

export type { SessionClient };

export interface StoredSession extends SessionClient {
  accountId: number;
  createdAt: Date;
  lastSeenAt: Date;
  expiresAt: Date;
}

/** One of an account's sessions, with the digest that keys it in the store. */
export interface ListedSession {
  digest: Buffer;
  session: StoredSession;
}

/**
 * Server-side session storage shared by every api instance: PostgreSQL by default, Redis when
 * configured. Keys are the digest of the session id; the id itself lives only in the cookie.
 */
export abstract class SessionStore {
  abstract create(digest: Buffer, accountId: number, expiresAt: Date, client: SessionClient): Promise<StoredSession>;
  abstract get(digest: Buffer): Promise<StoredSession | null>;
  /** The account's live (unexpired) sessions, in no particular order. */
  abstract listForAccount(accountId: number): Promise<ListedSession[]>;
  abstract touch(digest: Buffer, session: StoredSession, expiresAt: Date): Promise<void>;
  abstract destroy(digest: Buffer): Promise<void>;
  /** Ends every session of the account except `keep`; answers how many live sessions ended. */
  abstract destroyAllForAccount(accountId: number, keep: Buffer | null): Promise<number>;
}
