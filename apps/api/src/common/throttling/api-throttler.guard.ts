import { type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import {
  InjectThrottlerOptions,
  InjectThrottlerStorage,
  ThrottlerGuard,
  type ThrottlerLimitDetail,
  type ThrottlerModuleOptions,
  type ThrottlerRequest,
  type ThrottlerStorage,
} from '@nestjs/throttler';
import type { Request, Response } from 'express';
import { AUTH_THROTTLE } from '../auth/auth.decorators';
import { perRoute, type RouteTargets } from '../http/per-route';
import { ACCOUNT_THROTTLER, AccountRateLimit, rateLimited } from './account-rate-limit';

export const AUTH_THROTTLER = 'auth';

/** Login and friends: per client IP and submitted username, so one attacker cannot lock others out. */
export function authTracker(req: Request): string {
  const body = (req.body ?? {}) as Record<string, unknown>;
  const name = [body.username, body.email].find((v) => typeof v === 'string') as string | undefined;
  return `${req.ip}|${(name ?? '').toLowerCase().slice(0, 256)}`;
}

/** Which throttlers a route is under, read once per route. */
const limitsOf = perRoute((targets: RouteTargets) => ({
  auth: new Reflector().getAllAndOverride<boolean>(AUTH_THROTTLE, targets) ?? false,
  // @Throttle() or @SkipThrottle(): @nestjs/throttler's own metadata, which only its guard reads.
  own: targets.some((target) => (Reflect.getMetadataKeys(target) as unknown[]).some((key) => String(key).startsWith('THROTTLER'))),
}));

/**
 * Two throttlers (docs/api.md §3): `auth` on @AuthThrottle() routes, `account` on every authenticated
 * call. Runs after the auth guard, so the account is known.
 */
@Injectable()
export class ApiThrottlerGuard extends ThrottlerGuard {
  constructor(
    @InjectThrottlerOptions() options: ThrottlerModuleOptions,
    @InjectThrottlerStorage() storage: ThrottlerStorage,
    reflector: Reflector,
    private readonly account: AccountRateLimit,
  ) {
    super(options, storage, reflector);
  }

  /**
   * Neither throttler applies to an unauthenticated call of a route without @AuthThrottle()
   * (ingestion, public reads). An authenticated call of a route with no limits of its own — every
   * route but the sign-in ones — is counted in the account budget directly (AccountRateLimit: the
   * account throttler's storage, key, window, block and headers), without the base class resolving
   * every throttler's options from the route's metadata on each request.
   */
  override canActivate(context: ExecutionContext): Promise<boolean> {
    const limits = limitsOf(context);
    const req = context.switchToHttp().getRequest<Request>();
    if (!limits.auth && !limits.own) {
      if (!req.auth) return Promise.resolve(true);
      return this.account.count(req.auth.accountId, context.switchToHttp().getResponse<Response>()).then(() => true);
    }
    return super.canActivate(context);
  }

  protected override async handleRequest(props: ThrottlerRequest): Promise<boolean> {
    const req = props.context.switchToHttp().getRequest<Request>();
    if (props.throttler.name === AUTH_THROTTLER && !limitsOf(props.context).auth) return true;
    if (props.throttler.name === ACCOUNT_THROTTLER && !req.auth) return true;
    return super.handleRequest(props);
  }

  protected override async throwThrottlingException(_context: ExecutionContext, detail: ThrottlerLimitDetail): Promise<void> {
    throw rateLimited(detail.timeToBlockExpire);
  }
}
