import type { NextFunction, Request, Response } from 'express';
import { routeTemplate } from '../http/http-metrics';
import type { AuditLog } from './audit-log';

/** Methods that change state: their calls are recorded. */
const CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** A sign-in that is a browser's GET: the OpenID provider's answer (docs/api.md §3, "Single sign-on"). */
const SIGN_IN_GET = /^\/auth\/oidc\/[^/]+\/callback$/;
/** The longest sign-in name kept (a record must stay small whatever was typed). */
const NAME_MAX = 64;

/**
 * What a handler tells the record that the principal cannot: the account a sign-in opened (the
 * call had no principal yet), the organisation a call on its members or settings acted on (those
 * routes act as the person, in no organisation).
 */
type AuditLocals = { auditSignedIn?: { accountId: number; username: string }; auditOrganisation?: number; auditStatus?: number };

/** Who a sign-in opened: its record names the account. */
export function signedIn(res: Response, accountId: number, username: string): void {
  (res.locals as AuditLocals).auditSignedIn = { accountId, username };
}

/**
 * The status a refusal answered with a redirect stands for (a single sign-on sends the browser to the
 * sign-in page either way): its record says it failed, and why in HTTP's terms.
 */
export function refusedAs(res: Response, status: number): void {
  (res.locals as AuditLocals).auditStatus = status;
}

/** The organisation a call acted on (GET /org/{uid}/audit lists it): its management routes name it in their path. */
export function actedOn(res: Response, organisationId: number): void {
  (res.locals as AuditLocals).auditOrganisation = organisationId;
}

/**
 * Records every state-changing call once its answer has gone (or the client hung up): who
 * (account, token), the route and what it acted on (its path parameters, never the body), the
 * status, the address and the request id (docs/api.md §8). Left out: the networks' ingestion,
 * whose record is the stored uplink; calls that reached no route; and calls refused for want of
 * credentials except under /auth/ (sign-in, registration, password reset), which are throttled per
 * address — elsewhere anyone could fill the log with refusals that changed nothing and name no one.
 */
export function auditMiddleware(audit: AuditLog) {
  return (req: Request, res: Response, next: NextFunction): void => {
    if ((!CHANGING.has(req.method) && !(req.method === 'GET' && SIGN_IN_GET.test(req.path))) || req.path.startsWith('/ingest/')) {
      next();
      return;
    }
    let done = false;
    const ended = () => {
      if (done) return;
      done = true;
      const status = (res.locals as AuditLocals).auditStatus ?? res.statusCode;
      const route = routeTemplate(req, status);
      if (route === 'ROUTE_NOT_FOUND' || route === 'UNROUTED') return;
      const principal = req.auth && req.auth.via !== 'ingest-secret' ? req.auth : null;
      const path = `${req.baseUrl}${route}`;
      if (!principal && !path.startsWith('/auth/')) return;
      const body = req.body as { username?: unknown } | undefined;
      const tried = typeof body?.username === 'string' ? body.username.slice(0, NAME_MAX) : null;
      const locals = res.locals as AuditLocals;
      const opened = locals.auditSignedIn;
      audit.record({
        at: new Date(),
        // A sign-in names the account it opened, whatever session the browser came with.
        accountId: opened?.accountId ?? principal?.userId ?? null,
        organisationId: principal?.organisation?.id ?? locals.auditOrganisation ?? null,
        username: opened?.username ?? principal?.username ?? tried,
        tokenUid: principal?.tokenUid ?? null,
        via: principal ? (principal.via as 'session' | 'token') : null,
        action: `${req.method} ${path.replace(/:([A-Za-z_]+)/g, '{$1}')}`,
        target: { ...(req.params as Record<string, string>) },
        status,
        ip: req.ip ?? null,
        requestId: req.id ?? null,
      });
    };
    res.once('finish', ended);
    res.once('close', ended);
    next();
  };
}
