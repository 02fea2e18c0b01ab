import { type CanActivate, type ExecutionContext, Inject, Injectable, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { APP_CONFIG, type AppConfig } from '@dts/platform';
import type { Request } from 'express';
import { ApiException } from './api.exception';

export const ACCEPTS_MULTIPART = 'dts:accepts-multipart';

/** An upload route: the one kind of route that takes a multipart body. */
export const AcceptsMultipart = () => SetMetadata(ACCEPTS_MULTIPART, true);

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Cross-site request forgery. A browser sends the session cookie with a form another site posts
 * (SameSite=Lax does not stop another port or subdomain of the same site), and multipart or empty
 * text/plain bodies need no preflight. So, after authentication:
 * - a multipart body is refused (415) on every route but the upload routes, before it is read;
 * - an unsafe method authenticated by the session cookie (not by a token: a page cannot make a
 *   browser send one) is refused (403 FORBIDDEN, field Origin) when the browser says it comes
 *   from elsewhere: an `Origin` that is neither the service's own (PUBLIC_BASE_URL, or the scheme
 *   and Host the request arrived with, as the trusted proxy reports them) nor one of
 *   ALLOWED_ORIGINS, or without `Origin` a `Sec-Fetch-Site` other than same-origin or none.
 *   A request with neither header is not a browser's cross-site request (curl, scripts) and passes.
 */
@Injectable()
export class OriginGuard implements CanActivate {
  private readonly own: Set<string>;

  constructor(
    private readonly reflector: Reflector,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.own = new Set([new URL(config.publicBaseUrl).origin, ...config.allowedOrigins]);
  }

  canActivate(context: ExecutionContext): boolean {
    const req = context.switchToHttp().getRequest<Request>();
    const type = req.headers['content-type'];
    if (
      typeof type === 'string' &&
      /^\s*multipart\//i.test(type) &&
      !this.reflector.getAllAndOverride<boolean>(ACCEPTS_MULTIPART, [context.getHandler(), context.getClass()])
    ) {
      throw ApiException.of('UNSUPPORTED_MEDIA_TYPE', 'multipart bodies are taken by upload routes only; send application/json', 'Content-Type');
    }
    if (SAFE_METHODS.has(req.method) || req.auth?.via !== 'session') return true;
    const origin = req.headers.origin;
    if (origin !== undefined) {
      if (this.own.has(origin) || origin === `${req.protocol}://${req.get('host')}`) return true;
      throw refused(`requests signed in with the session cookie are not accepted from ${origin.slice(0, 200)}`);
    }
    const site = req.headers['sec-fetch-site'];
    if (site !== undefined && site !== 'same-origin' && site !== 'none')
      throw refused(`requests signed in with the session cookie are not accepted from a ${String(site).slice(0, 20)} page`);
    return true;
  }
}

const refused = (message: string) => ApiException.of('FORBIDDEN', `${message}: use an API token, or add the origin to ALLOWED_ORIGINS`, 'Origin');
