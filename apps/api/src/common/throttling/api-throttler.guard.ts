import { type ExecutionContext, Injectable } from '@nestjs/common';
import { ThrottlerGuard, type ThrottlerLimitDetail, type ThrottlerRequest } from '@nestjs/throttler';
import type { Request } from 'express';
import { AUTH_THROTTLE } from '../auth/auth.decorators';
import { ACCOUNT_THROTTLER, rateLimited } from './account-rate-limit';

export const AUTH_THROTTLER = 'auth';

/** Login and friends: per client IP and submitted username, so one attacker cannot lock others out. */
export function authTracker(req: Request): string {
  const body = (req.body ?? {}) as Record<string, unknown>;
  const name = [body.username, body.email].find((v) => typeof v === 'string') as string | undefined;
  return `${req.ip}|${(name ?? '').toLowerCase().slice(0, 256)}`;
}

/**
 * Two throttlers (docs/api.md §3): `auth` on @AuthThrottle() routes, `account` on every authenticated
 * call. Runs after the auth guard, so the account is known.
 */
@Injectable()
export class ApiThrottlerGuard extends ThrottlerGuard {
  /**
   * Neither throttler applies to an unauthenticated call of a route without @AuthThrottle()
   * (ingestion, public reads): answered before the base class resolves every throttler's options
   * from the route's metadata (docs/benchmarks.md, figure 2).
   */
  override canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<Request>();
    if (!req.auth && !this.reflector.getAllAndOverride<boolean>(AUTH_THROTTLE, [context.getHandler(), context.getClass()])) return Promise.resolve(true);
    return super.canActivate(context);
  }

  protected override async handleRequest(props: ThrottlerRequest): Promise<boolean> {
    const req = props.context.switchToHttp().getRequest<Request>();
    if (props.throttler.name === AUTH_THROTTLER) {
      const marked = this.reflector.getAllAndOverride<boolean>(AUTH_THROTTLE, [props.context.getHandler(), props.context.getClass()]);
      if (!marked) return true;
    }
    if (props.throttler.name === ACCOUNT_THROTTLER && !req.auth) return true;
    return super.handleRequest(props);
  }

  protected override async throwThrottlingException(_context: ExecutionContext, detail: ThrottlerLimitDetail): Promise<void> {
    throw rateLimited(detail.timeToBlockExpire);
  }
}
