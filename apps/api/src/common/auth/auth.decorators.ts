import { applyDecorators, createParamDecorator, type ExecutionContext, SetMetadata } from '@nestjs/common';
import type { RouteAuthLevel } from '@dts/domain';
import type { Request } from 'express';
import type { AuthPrincipal } from './auth-principal';

export const AUTH_LEVEL = 'dts:auth-level';
export const MASTER_ONLY = 'dts:master-only';
export const AUTH_THROTTLE = 'dts:auth-throttle';

/** No credentials needed. Credentials that come anyway are still read (GET /user/state). */
export const Public = () => SetMetadata(AUTH_LEVEL, 'none' satisfies RouteAuthLevel);

/** An administrator account (groupid 1) only. */
export const AdminOnly = () => SetMetadata(AUTH_LEVEL, 'admin' satisfies RouteAuthLevel);

/** Ingestion: the platform ingest secret or an API token of the account. */
export const IngestAuth = () => SetMetadata(AUTH_LEVEL, 'ingest' satisfies RouteAuthLevel);

/**
 * Prometheus' scrape: `Authorization: Bearer <METRICS_TOKEN>` when that is set, open otherwise.
 * Account credentials are never read here.
 */
export const MetricsAuth = () => SetMetadata(AUTH_LEVEL, 'metrics' satisfies RouteAuthLevel);

/** A session or a master token; an app token gets 403 FORBIDDEN. */
export const MasterOnly = () => SetMetadata(MASTER_ONLY, true);

/** Throttled per client IP and submitted username (login, check, restore, register). */
export const AuthThrottle = () => applyDecorators(SetMetadata(AUTH_THROTTLE, true));

/** The principal the guard established. Only on routes that are not @Public(). */
export const CurrentAccount = createParamDecorator((_: unknown, ctx: ExecutionContext): AuthPrincipal => {
  const principal = ctx.switchToHttp().getRequest<Request>().auth;
  // The guard admits no unauthenticated call to such a route: reaching here without one is a bug.
  if (!principal) throw new Error('CurrentAccount used on a route without authentication');
  return principal;
});
