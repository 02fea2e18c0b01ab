import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig, TokenCryptoService } from '@dts/platform';
import type { Request, Response } from 'express';
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { SessionStore, type StoredSession } from './session-store';

/** A session is written back (rolling expiry) at most this often, not on every request. */
const TOUCH_INTERVAL_MS = 60_000;

export interface ResolvedSession {
  digest: Buffer;
  session: StoredSession;
}

/**
 * Session cookies: `<id>.<hmac>` where the id is 32 random bytes and the HMAC (SESSION_SECRET)
 * lets a forged cookie be refused without a store look-up. The store is keyed by the id's digest.
 */
@Injectable()
export class SessionService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly store: SessionStore,
    private readonly crypto: TokenCryptoService,
  ) {}

  get cookieName(): string {
    return this.config.session.cookieName;
  }

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

  readCookie(req: Request): string | null {
    const value = (req.cookies as Record<string, unknown> | undefined)?.[this.cookieName];
    return typeof value === 'string' && value.length > 0 ? value : null;
  }

  /** Starts a session for the account and sets its cookie. */
  async start(req: Request, res: Response, accountId: number): Promise<ResolvedSession> {
    const id = randomBytes(32).toString('base64url');
    const digest = this.crypto.digest(id);
    const session = await this.store.create(digest, accountId, this.expiry());
    this.setCookie(req, res, `${id}.${this.sign(id)}`, session.expiresAt);
    return { digest, session };
  }

  /** The live session the cookie names, with its expiry rolled forward; null when there is none. */
  async resolve(req: Request, res: Response, cookie: string): Promise<ResolvedSession | null> {
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
      this.setCookie(req, res, cookie, expiresAt);
    }
    return { digest, session };
  }

  /** Removes a session from the store without touching the response's cookie. */
  forget(digest: Buffer): Promise<void> {
    return this.store.destroy(digest);
  }

  async end(res: Response, digest: Buffer | null): Promise<void> {
    if (digest) await this.store.destroy(digest);
    res.clearCookie(this.cookieName, { path: '/', httpOnly: true, sameSite: 'lax' });
  }

  /** The digest of the session the request's cookie names, valid or not (for logout and login). */
  digestOf(cookie: string | null): Buffer | null {
    const id = cookie ? this.verify(cookie) : null;
    return id ? this.crypto.digest(id) : null;
  }

  endAllForAccount(accountId: number, keep: Buffer | null): Promise<void> {
    return this.store.destroyAllForAccount(accountId, keep);
  }

  /** Secure when the client reached us over TLS, as the load balancer says (trust proxy). */
  isSecure(req: Request): boolean {
    return req.secure;
  }

  private expiry(): Date {
    return new Date(Date.now() + this.config.session.ttlSeconds * 1000);
  }

  private setCookie(req: Request, res: Response, value: string, expiresAt: Date): void {
    res.cookie(this.cookieName, value, { httpOnly: true, sameSite: 'lax', secure: this.isSecure(req), path: '/', expires: expiresAt });
  }
}
