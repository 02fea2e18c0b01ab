import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { RouteAuthLevel } from '@dts/domain';
import { APP_CONFIG, type AppConfig, metricsAccess, TokenCryptoService } from '@dts/platform';
import type { Request, Response } from 'express';
import { ApiException } from '../http/api.exception';
import { type AuthPrincipal, isMasterCredential } from './auth-principal';
import { AUTH_LEVEL, MASTER_ONLY } from './auth.decorators';
import { Authenticator } from './authenticator.service';
import { presentedToken } from './credentials';
import { SessionCookies } from './session-cookies';

export function routeAuthLevel(reflector: Reflector, targets: [Function, Function]): RouteAuthLevel {
  return reflector.getAllAndOverride<RouteAuthLevel>(AUTH_LEVEL, targets) ?? 'user';
}

/**
 * Global and deny by default: a route without a decorator needs an authenticated account. Public
 * routes opt out with @Public(), administrators' with @AdminOnly(), ingestion with @IngestAuth(),
 * the metrics scrape with @MetricsAuth().
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly authenticator: Authenticator,
    private readonly cookies: SessionCookies,
    private readonly crypto: TokenCryptoService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const targets: [Function, Function] = [context.getHandler(), context.getClass()];
    const level = routeAuthLevel(this.reflector, targets);
    const req = context.switchToHttp().getRequest<Request>();
    const res = context.switchToHttp().getResponse<Response>();

    if (level === 'none') {
      // Public routes still learn who calls (GET /user/state), but bad credentials do not fail them.
      req.auth = (await this.authenticate(req, res).catch((e) => (e instanceof ApiException ? null : Promise.reject(e)))) ?? undefined;
      return true;
    }
    if (level === 'metrics') {
      const access = metricsAccess(req.headers.authorization, this.config.metricsToken);
      if (access === 'open') return true;
      throw ApiException.of(access, access === 'AUTH_REQUIRED' ? 'this route needs the metrics token' : 'the metrics token is not valid', 'Authorization');
    }
    if (level === 'ingest') {
      if (this.hasIngestSecret(req)) {
        req.ingestSecret = true;
        return true;
      }
      if (typeof req.headers['x-ingest-secret'] === 'string') throw ApiException.of('INVALID_TOKEN', 'the ingest secret is not valid', 'X-Ingest-Secret');
    }

    const principal = await this.authenticate(req, res);
    if (!principal) throw ApiException.of('AUTH_REQUIRED', 'this route needs a session or an API token');
    req.auth = principal;
    if (level === 'admin' && !principal.isAdmin) throw ApiException.of('ADMIN_ONLY', 'this route is for administrators');
    if (this.reflector.getAllAndOverride<boolean>(MASTER_ONLY, targets) && !isMasterCredential(principal)) {
      throw ApiException.of('FORBIDDEN', 'this needs a session or a master token, not an app token');
    }
    return true;
  }

  /** The request's credentials to a principal; sets the session cookie again when its expiry rolled forward. */
  private async authenticate(req: Request, res: Response): Promise<AuthPrincipal | null> {
    const token = presentedToken(req);
    const found = await this.authenticator.authenticate({ token, cookie: token === null ? this.cookies.read(req) : null });
    if (found?.renewedCookie) this.cookies.write(req, res, found.renewedCookie);
    return found?.principal ?? null;
  }

  /** The platform ingest secret, in X-Ingest-Secret or in any of the token header forms. */
  private hasIngestSecret(req: Request): boolean {
    const header = req.headers['x-ingest-secret'];
    const given = typeof header === 'string' && header.length > 0 ? header : presentedToken(req);
    return given !== null && this.crypto.equals(given, this.config.secrets.ingest.reveal());
  }
}

declare module 'express-serve-static-core' {
  interface Request {
    /** Set on ingest routes called with the platform ingest secret. */
    ingestSecret?: boolean;
  }
}
