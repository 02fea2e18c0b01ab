import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { type KeyRight, ORGANISATION_HEADER, type OrgRole, roleAtLeast, type RouteAuthLevel } from '@dts/domain';
import { OrganisationsRepository } from '@dts/persistence';
import { APP_CONFIG, type AppConfig, metricsAccess, TokenCryptoService } from '@dts/platform';
import type { Request, Response } from 'express';
import { ApiException } from '../http/api.exception';
import { perRoute, type RouteTargets } from '../http/per-route';
import { asPerson, type AuthPrincipal, isMasterCredential } from './auth-principal';
import { AUTH_LEVEL, KEY_RIGHT, MASTER_ONLY, ORG_ROLE, ORGANISATION_QUERY, PERSONAL } from './auth.decorators';
import { Authenticator } from './authenticator.service';
import { presentedToken } from './credentials';
import { SessionCookies } from './session-cookies';

const ORGANISATION_HEADER_NAME = ORGANISATION_HEADER.toLowerCase();
/** A read: what a key needs `read` for and a viewer may do. */
const isSafe = (method: string) => method === 'GET' || method === 'HEAD';

export function routeAuthLevel(reflector: Reflector, targets: [Function, Function]): RouteAuthLevel {
  return reflector.getAllAndOverride<RouteAuthLevel>(AUTH_LEVEL, targets) ?? 'user';
}

/** Whether the route acts on the person (@PersonalRoute), never in an organisation. */
export function isPersonalRoute(reflector: Reflector, targets: [Function, Function]): boolean {
  return reflector.getAllAndOverride<boolean>(PERSONAL, targets) ?? false;
}

/**
 * The right a key with a list of rights needs for the route (docs/api.md §20): `ingest` to ingest,
 * `account` on a personal route, the route's @KeyRight for changes (and reads, where it says so),
 * `read` for other reads; null: no key with a list may call it (administrators' routes, and a
 * change that names no right — deny by default).
 */
export function neededRight(reflector: Reflector, targets: [Function, Function], method: string): KeyRight | null {
  const level = routeAuthLevel(reflector, targets);
  if (level === 'ingest') return 'ingest';
  if (level !== 'user') return null;
  if (isPersonalRoute(reflector, targets)) return 'account';
  const declared = reflector.getAllAndOverride<{ right: KeyRight; reads: boolean } | undefined>(KEY_RIGHT, targets);
  if (isSafe(method)) return declared?.reads ? declared.right : 'read';
  return declared?.right ?? null;
}

/** Refuses a key whose list of rights lacks `right` (403 RIGHT_REQUIRED); a session and a key without a list may call any route. */
export function requireKeyRight(principal: AuthPrincipal, right: KeyRight | null): void {
  if (principal.rights === null || (right !== null && principal.rights.includes(right))) return;
  throw ApiException.of(
    'RIGHT_REQUIRED',
    right === null ? 'this route is for sessions and keys without a list of rights' : `this key lacks the ${right} right`,
    'Authorization',
  );
}

/** The least role a member needs for the route (@OrgRole, else viewer for reads and operator for the rest). */
export function neededRole(reflector: Reflector, targets: [Function, Function], method: string): OrgRole {
  return reflector.getAllAndOverride<OrgRole>(ORG_ROLE, targets) ?? (isSafe(method) ? 'viewer' : 'operator');
}

/** What the guard needs of a route's decorators, read once per route. */
const rulesOf = perRoute((targets: RouteTargets) => {
  const reflector = new Reflector();
  return {
    level: routeAuthLevel(reflector, targets),
    personal: isPersonalRoute(reflector, targets),
    masterOnly: reflector.getAllAndOverride<boolean>(MASTER_ONLY, targets) ?? false,
    organisationInQuery: reflector.getAllAndOverride<boolean>(ORGANISATION_QUERY, targets) ?? false,
    /** neededRight and neededRole for a read (GET, HEAD) and for a change. */
    right: { read: neededRight(reflector, targets, 'GET'), change: neededRight(reflector, targets, 'POST') },
    role: { read: neededRole(reflector, targets, 'GET'), change: neededRole(reflector, targets, 'POST') },
  };
});
type RouteRules = ReturnType<typeof rulesOf>;

/**
 * Global and deny by default: a route without a decorator needs an authenticated account. Public
 * routes opt out with @Public(), administrators' with @AdminOnly(), ingestion with @IngestAuth(),
 * the metrics scrape with @MetricsAuth().
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly authenticator: Authenticator,
    private readonly cookies: SessionCookies,
    private readonly crypto: TokenCryptoService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly organisations: OrganisationsRepository,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const rules = rulesOf(context);
    const level = rules.level;
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

    const authenticated = await this.authenticate(req, res);
    if (!authenticated) throw ApiException.of('AUTH_REQUIRED', 'this route needs a session or an API token');
    // Administrators' routes act as the person; every other one in the organisation the request names.
    const principal = level === 'admin' ? asPerson(authenticated, authenticated.username) : await this.actingIn(authenticated, req, rules);
    req.auth = principal;
    if (level === 'admin' && !principal.isAdmin) throw ApiException.of('ADMIN_ONLY', 'this route is for administrators');
    requireKeyRight(principal, isSafe(req.method) ? rules.right.read : rules.right.change);
    if (rules.masterOnly && !isMasterCredential(principal)) {
      throw ApiException.of('FORBIDDEN', 'this needs a session or a master token, not an app token');
    }
    return true;
  }

  /**
   * The principal as it acts on this route (docs/api.md §20): a personal route acts as the person
   * (an organisation's key may not call one); any other in the organisation the key belongs to or
   * the session names in X-Organisation, with the member's role checked against the route's.
   */
  private async actingIn(principal: AuthPrincipal, req: Request, rules: RouteRules): Promise<AuthPrincipal> {
    const header = req.headers[ORGANISATION_HEADER_NAME];
    const query = rules.organisationInQuery ? req.query.organisation : undefined;
    const given = typeof header === 'string' && header.trim() !== '' ? header : query;
    const named = typeof given === 'string' && given.trim() !== '' ? given.trim() : null;
    if (rules.personal) {
      if (principal.via === 'token' && principal.organisation) {
        throw ApiException.of(
          'FORBIDDEN',
          `this route acts on a person's account; a key of ${principal.organisation.name} acts for the organisation only`,
          'Authorization',
        );
      }
      return principal;
    }
    let acting = principal;
    if (named !== null) {
      if (principal.via === 'token') {
        // A key acts in its own account: naming another is naming something it cannot see.
        const own = principal.organisation;
        if (!own || (named.toLowerCase() !== own.name.toLowerCase() && named !== String(own.id)))
          throw ApiException.notFound('organisation', ORGANISATION_HEADER);
      } else {
        const membership = await this.organisations.membership(named, principal.userId);
        if (!membership) throw ApiException.notFound('organisation', ORGANISATION_HEADER);
        acting = {
          ...principal,
          accountId: membership.organisationId,
          organisation: { id: membership.organisationId, name: membership.name },
          role: membership.role,
        };
      }
    }
    const needed = isSafe(req.method) ? rules.role.read : rules.role.change;
    if (!roleAtLeast(acting.role, needed)) {
      throw ApiException.of('ROLE_REQUIRED', `this needs the ${needed} role in ${acting.organisation?.name ?? 'the organisation'} (yours: ${acting.role})`);
    }
    return acting;
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
