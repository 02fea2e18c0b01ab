import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@dts/platform';
import cookieParser from 'cookie-parser';
import type { Request, Response } from 'express';
import type { SessionCookie } from './session.service';

/** Parses a request's Cookie header into `req.cookies` (cookie-parser, called as it would be as a middleware). */
const parseCookies = cookieParser();

/**
 * The session cookie on the HTTP request and response: the one place it is read, set and cleared.
 * SessionService decides what it holds (value, expiry); controllers and the auth guard call this.
 */
@Injectable()
export class SessionCookies {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  get name(): string {
    return this.config.session.cookieName;
  }

  /**
   * The session cookie's value. Cookies are parsed here, on first use, not by a middleware for every
   * request: a request with a token never reads them (docs/benchmarks.md, figure 4).
   */
  read(req: Request): string | null {
    if (req.cookies === undefined) parseCookies(req, {} as Response, () => undefined);
    const value = (req.cookies as Record<string, unknown> | undefined)?.[this.name];
    return typeof value === 'string' && value.length > 0 ? value : null;
  }

  write(req: Request, res: Response, cookie: SessionCookie): void {
    res.cookie(this.name, cookie.value, { httpOnly: true, sameSite: 'lax', secure: this.isSecure(req), path: '/', expires: cookie.expiresAt });
  }

  clear(res: Response): void {
    res.clearCookie(this.name, { path: '/', httpOnly: true, sameSite: 'lax' });
  }

  /**
   * Secure when the client reached us over TLS: the connection itself, or the load balancer's
   * X-Forwarded-Proto whatever TRUST_PROXY says. TLS usually ends at the load balancer, and with
   * TRUST_PROXY at its default (none) `req.secure` is always false there, so the cookie went out
   * without Secure. Believing the header from anyone is safe here, unlike X-Forwarded-For (which
   * Express still takes only from trusted hops): a client that lies gets a cookie its browser will
   * not send over plain HTTP, which only locks that client out of its own session. The first value
   * is the client's side of the first proxy.
   */
  isSecure(req: Request): boolean {
    if (req.secure) return true;
    const header = req.headers['x-forwarded-proto'];
    const first = (Array.isArray(header) ? header[0] : header)?.split(',')[0]?.trim().toLowerCase();
    return first === 'https';
  }
}
