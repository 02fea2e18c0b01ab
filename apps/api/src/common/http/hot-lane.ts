import { RequestMethod, type Type } from '@nestjs/common';
import {
  GUARDS_METADATA,
  HEADERS_METADATA,
  HTTP_CODE_METADATA,
  INTERCEPTORS_METADATA,
  METHOD_METADATA,
  PATH_METADATA,
  PIPES_METADATA,
} from '@nestjs/common/constants';
import { Reflector } from '@nestjs/core';
import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host';
import type { Request, RequestHandler, Response } from 'express';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { KeyRight } from '@dts/domain';
import type { AuthPrincipal } from '../auth/auth-principal';
import { AUTH_THROTTLE, MASTER_ONLY } from '../auth/auth.decorators';
import { AuthGuard, neededRight, requireKeyRight, routeAuthLevel } from '../auth/auth.guard';
import type { Authenticator } from '../auth/authenticator.service';
import { presentedToken } from '../auth/credentials';
import type { AccountRateLimit } from '../throttling/account-rate-limit';
import { ApiThrottlerGuard } from '../throttling/api-throttler.guard';
import type { ApiExceptionFilter } from './api-exception.filter';
import { envelopeOf, RAW_RESPONSE } from './envelope.interceptor';
import { OriginGuard } from './origin.guard';
import { writeJson } from './write-json';

/**
 * A controller route that takes nothing but its caller (`@CurrentAccount()`) and answers in the
 * envelope: the one kind of route the hot lane serves. `call` calls the handler.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- one list holds the routes of different controllers
export interface HotRoute<C = any> {
  controller: Type<C>;
  /** The handler's name on the controller; its method, path and rules are read from its decorators. */
  handler: keyof C & string;
  call: (controller: C, caller: AuthPrincipal) => unknown;
}

/** The application's own parts, which the lane runs in the order Express and Nest would. */
export interface HotLaneParts {
  /** Express's request listener: every request the lane does not take. */
  express: (req: IncomingMessage, res: ServerResponse) => void;
  /** The middlewares Express runs first (request id, request log, security headers), in order. */
  middlewares: RequestHandler[];
  /** The global guards, in their order: each must be one whose decision the lane makes (GUARD_DECISIONS). */
  guards: readonly Type[];
  authenticator: Authenticator;
  rateLimit: AccountRateLimit;
  filter: ApiExceptionFilter;
  /** Express's ETag function (its `etag fn` setting), when ETags are on. */
  etag?: (text: string) => string;
}

/**
 * What each global guard decides for a plain token read of a hot route, and where the lane makes
 * the same decision through the same code.
 */
const GUARD_DECISIONS = new Map<Type, string>([
  [
    AuthGuard,
    'a token that authenticates (Authenticator) and holds the route’s right (requireKeyRight); any account and any role, the route being a read, neither admin- nor master-only, and no organisation named',
  ],
  [OriginGuard, 'nothing: a GET without a body, signed with a token'],
  [ApiThrottlerGuard, 'the account budget (AccountRateLimit); a hot route has no route limits of its own'],
]);

/** Route decorators the lane does not apply: a hot route has none of them. */
const NOT_APPLIED = [GUARDS_METADATA, INTERCEPTORS_METADATA, PIPES_METADATA, HEADERS_METADATA, HTTP_CODE_METADATA, RAW_RESPONSE, MASTER_ONLY, AUTH_THROTTLE];

/** Anything but a plain read signed with a token is the full pipeline's: a body, a session cookie alone, a conditional request. */
const NOT_PLAIN = ['content-length', 'transfer-encoding', 'content-type', 'if-none-match', 'if-modified-since', 'x-organisation'];

/** A token header with something in it (presentedToken reads blank ones as none). */
const given = (value: string | string[] | undefined) => typeof value === 'string' && value.trim() !== '';

type Routed = IncomingMessage & { route?: { path: string }; auth?: AuthPrincipal };

interface Served {
  route: HotRoute;
  controller: unknown;
  /** What a key with a list of rights needs for it (the guard's own rule). */
  right: KeyRight | null;
  /** The route template, where the request log and the duration metric read it (Express's `req.route`). */
  template: { path: string };
}

function servedRoute(route: HotRoute, controller: unknown, reflector: Reflector): [string, Served] {
  const name = `${route.controller.name}.${route.handler}`;
  const handler = (route.controller.prototype as Record<string, unknown>)[route.handler];
  if (typeof handler !== 'function') throw new Error(`hot route ${name}: not a handler`);
  if (Reflect.getMetadata(METHOD_METADATA, handler) !== RequestMethod.GET) throw new Error(`hot route ${name}: not a GET route`);
  const targets: [Function, Function] = [handler, route.controller];
  for (const key of NOT_APPLIED) {
    if (reflector.getAllAndOverride(key, targets) !== undefined)
      throw new Error(`hot route ${name}: carries ${String(key)}, which the hot lane does not apply`);
  }
  const throttled = targets.flatMap((t) => Reflect.getMetadataKeys(t) as unknown[]).find((key) => String(key).startsWith('THROTTLER'));
  if (throttled !== undefined) throw new Error(`hot route ${name}: has limits of its own (${String(throttled)})`);
  if (routeAuthLevel(reflector, targets) !== 'user') throw new Error(`hot route ${name}: not a route for any authenticated account`);
  const parts = [Reflect.getMetadata(PATH_METADATA, route.controller), Reflect.getMetadata(PATH_METADATA, handler)] as string[];
  const path = `/${parts
    .flatMap((p) => p.split('/'))
    .filter(Boolean)
    .join('/')}`;
  return [path, { route, controller, right: neededRight(reflector, targets, 'GET'), template: { path } }];
}

/**
 * The hottest reads (`GET /user/device`; docs/benchmarks.md, figure 4) answered as soon as the
 * request is parsed, before Express: on such a small read, Express's per-request work (its
 * request and response objects, matching against every route layer) and Nest's pipeline (guard
 * and interceptor consumers, rxjs, parameter factories) cost more than the read itself.
 *
 * What the lane runs is the application's own: the middlewares Express runs first, the
 * authenticator and the account budget the guards use, the handler, the envelope, Express's ETag
 * and the exception filter. What it leaves out is checked when it is built: a route carrying a
 * decorator the lane would not apply, or a global guard whose decision it does not make, stops the
 * start. Every other request — another route, a query string, a body, a session cookie, a
 * conditional request — goes to Express unchanged.
 */
export function hotLane(routes: readonly HotRoute[], controllerOf: (type: Type) => unknown, parts: HotLaneParts) {
  for (const guard of parts.guards) {
    if (!GUARD_DECISIONS.has(guard)) throw new Error(`hot lane: the global guard ${guard.name} decides something the lane does not`);
  }
  const reflector = new Reflector();
  const byPath = new Map(routes.map((route) => servedRoute(route, controllerOf(route.controller), reflector)));

  const answer = async (served: Served, req: Routed, res: ServerResponse): Promise<void> => {
    try {
      const found = await parts.authenticator.authenticate({ token: presentedToken(req as Request), cookie: null });
      const caller = found!.principal;
      requireKeyRight(caller, served.right);
      req.auth = caller;
      await parts.rateLimit.count(caller.accountId, res);
      writeJson(res, 200, envelopeOf(await served.route.call(served.controller, caller)), parts.etag);
    } catch (error) {
      parts.filter.catch(error, new ExecutionContextHost([req, res]));
    }
  };

  return (req: Routed, res: ServerResponse): void => {
    const served = req.method === 'GET' ? byPath.get(req.url!) : undefined;
    const headers = req.headers;
    if (!served || !(given(headers.authorization) || given(headers.token)) || NOT_PLAIN.some((name) => headers[name] !== undefined)) {
      return parts.express(req, res);
    }
    req.route = served.template;
    let at = 0;
    // Each middleware calls on to the next (the request log's within its log scope), the last to the route.
    const step = (error?: unknown): void => {
      if (error !== undefined) return parts.filter.catch(error, new ExecutionContextHost([req, res]));
      const middleware = parts.middlewares[at++];
      if (middleware) middleware(req as Request, res as Response, step);
      else void answer(served, req, res);
    };
    step();
  };
}
