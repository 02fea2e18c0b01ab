import { Inject, Injectable } from '@nestjs/common';
import { USER_SESSION_ID_LENGTH } from '@dts/domain';
import { APP_CONFIG, type AppConfig, TokenCryptoService } from '@dts/platform';
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { type ListedSession, type SessionClient, SessionStore, type StoredSession } from './session-store';

/** A session is written back (rolling expiry) at most this often, not on every request. */
const TOUCH_INTERVAL_MS = 60_000;

export interface ResolvedSession {
  digest: Buffer;
  session: StoredSession;
}

/** What the session cookie is to be set to; the HTTP layer writes it (session-cookies.ts). */
export interface SessionCookie {
  value: string;
  expiresAt: Date;
}

/**
 * Session cookies: `<id>.<hmac>` where the id is 32 random bytes and the HMAC (SESSION_SECRET)
 * lets a forged cookie be refused without a store look-up. The store is keyed by the id's digest.
 * Plain values in and out: the cookie's value and expiry are decided here, and read from and
 * written to the request by SessionCookies.
 */
@Injectable()
export class SessionService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly store: SessionStore,
    private readonly crypto: TokenCryptoService,
  ) {}

  private sign(id: string): string {
    return createHmac('sha256', this.config.secrets.session.reveal()).update(id).digest('base64url');
  }

  /** The id inside a well-formed, correctly signed cookie value, else null. */
  private verify(value: string): string | null {
    const [id, signature, extra] = value.split('.');
    if (!id || !signature || extra !== undefined || !/^[A-Za-z0-9_-]{43}$/.test(id)) return null;
    const expected = Buffer.from(this.sign(id));
    const given = Buffer.from(signature);
    return expected.length === given.length && timingSafeEqual(expected, given) ? id : null;
  }

  /**
   * Starts a session for the account; `cookie` is what the caller's session cookie is to be set to.
   * `client`: where the sign-in came from, kept for the account's list of sessions.
   */
  async start(accountId: number, client: SessionClient): Promise<ResolvedSession & { cookie: SessionCookie }> {
    const id = randomBytes(32).toString('base64url');
    const digest = this.crypto.digest(id);
    const session = await this.store.create(digest, accountId, this.expiry(), client);
    return { digest, session, cookie: { value: `${id}.${this.sign(id)}`, expiresAt: session.expiresAt } };
  }

  /**
   * The live session the cookie names, with its expiry rolled forward; null when there is none.
   * `renewed`: the cookie to set again when the expiry moved (at most once a minute), else null.
   */
  async resolve(cookie: string): Promise<(ResolvedSession & { renewed: SessionCookie | null }) | null> {
    const id = this.verify(cookie);
    if (!id) return null;
    const digest = this.crypto.digest(id);
    const session = await this.store.get(digest);
    if (!session) return null;
    if (Date.now() - session.lastSeenAt.getTime() > TOUCH_INTERVAL_MS) {
      const expiresAt = this.expiry();
      await this.store.touch(digest, session, expiresAt);
      session.lastSeenAt = new Date();
      session.expiresAt = expiresAt;
      return { digest, session, renewed: { value: cookie, expiresAt } };
    }
    return { digest, session, renewed: null };
  }

  /** Ends a session (removes it from the store); the caller's cookie is the HTTP layer's to clear. */
  async end(digest: Buffer | null): Promise<void> {
    if (digest) await this.store.destroy(digest);
  }

  /** The digest of the session the request's cookie names, valid or not (for logout and login). */
  digestOf(cookie: string | null): Buffer | null {
    const id = cookie ? this.verify(cookie) : null;
    return id ? this.crypto.digest(id) : null;
  }

  /** Ends every session of the account but `keep`; answers how many ended. */
  endAllForAccount(accountId: number, keep: Buffer | null): Promise<number> {
    return this.store.destroyAllForAccount(accountId, keep);
  }

  /** The account's live sessions. */
  listForAccount(accountId: number): Promise<ListedSession[]> {
    return this.store.listForAccount(accountId);
  }

  /**
   * The id a session is shown under (GET /user/session): stable for the session's life, and
   * derived from the stored digest with the session secret, so that neither the cookie nor the
   * digest can be worked back from it, nor the id made without the secret. 96 bits: ids are only
   * ever looked up among one account's sessions.
   */
  publicId(digest: Buffer): string {
    return createHmac('sha256', this.config.secrets.session.reveal()).update('session-id\0').update(digest).digest('hex').slice(0, USER_SESSION_ID_LENGTH);
  }

  private expiry(): Date {
    return new Date(Date.now() + this.config.session.ttlSeconds * 1000);
  }
}
