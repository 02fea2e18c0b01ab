import { applyDecorators, createParamDecorator, type ExecutionContext, SetMetadata } from '@nestjs/common';
import type { KeyRight as Right, OrgRole as Role, RouteAuthLevel } from '@dts/domain';
import { ApiQuery } from '@nestjs/swagger';
import type { Request } from 'express';
import type { AuthPrincipal } from './auth-principal';

export const AUTH_LEVEL = 'dts:auth-level';
export const MASTER_ONLY = 'dts:master-only';
export const AUTH_THROTTLE = 'dts:auth-throttle';
export const ORG_ROLE = 'dts:org-role';
export const PERSONAL = 'dts:personal';
export const KEY_RIGHT = 'dts:key-right';
export const ORGANISATION_QUERY = 'dts:organisation-query';

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

/**
 * The least role a member needs for the route in the organisation the request acts in (docs/api.md
 * §20). Without it: 'viewer' for GET and HEAD, 'operator' for everything else — deny by default,
 * so that a route that changes something is never open to viewers by omission.
 */
export const OrgRole = (role: Role) => SetMetadata(ORG_ROLE, role);

/**
 * The right a key with a list of rights needs for the route's changes (docs/api.md §20); reads need
 * `read`, unless `reads` says this right covers them too (keys: listing them shows their values).
 * A change whose route names no right is for keys without a list only: deny by default.
 */
export const KeyRight = (right: Right, options: { reads?: boolean } = {}) => SetMetadata(KEY_RIGHT, { right, reads: options.reads ?? false });

/**
 * The route also takes the organisation as the `organisation` query parameter, for a client that
 * cannot set headers: a browser's EventSource on the live feeds, a download link on the exports
 * (docs/api.md §20). The header wins. `inQueryDto`: the route's query DTO declares the member.
 */
export const OrganisationInQuery = ({ inQueryDto = false } = {}) =>
  applyDecorators(
    SetMetadata(ORGANISATION_QUERY, true),
    ...(inQueryDto
      ? []
      : [ApiQuery({ name: 'organisation', required: false, description: 'The organisation to act in, as X-Organisation (EventSource sends no headers).' })]),
  );

/**
 * The route acts on the person calling, never on an organisation: their profile, password,
 * address, sessions, invitations and memberships. A session acts as the person whatever
 * organisation it names; an organisation's key is refused (it acts for the organisation only).
 */
export const PersonalRoute = () => SetMetadata(PERSONAL, true);

/** Throttled per client IP and submitted username (login, check, restore, register). */
export const AuthThrottle = () => applyDecorators(SetMetadata(AUTH_THROTTLE, true));

/** The principal the guard established. Only on routes that are not @Public(). */
export const CurrentAccount = createParamDecorator((_: unknown, ctx: ExecutionContext): AuthPrincipal => {
  const principal = ctx.switchToHttp().getRequest<Request>().auth;
  // The guard admits no unauthenticated call to such a route: reaching here without one is a bug.
  if (!principal) throw new Error('CurrentAccount used on a route without authentication');
  return principal;
});
