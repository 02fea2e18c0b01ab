import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { match, type MatchFunction } from 'path-to-regexp';

/** A controller route as Nest hands it to the HTTP adapter: method, Express path, Nest's handler. */
interface TableRoute {
  /** Lower-case verb, or `all`. */
  method: string;
  path: string;
  handler: RequestHandler;
  /** Express's own matcher for the path (see `expressMatcher`). */
  matches: MatchFunction<Record<string, string>>;
  /** What the request log and the duration metric read as the route (Express's `req.route`). */
  route: { path: string };
  /** Registration order: the first registered route that matches a request answers it, as in Express. */
  order: number;
}

/** A path made of static and `:name` segments only: its segment count and first segment are fixed. */
const SIMPLE = /^(?:\/(?:[A-Za-z0-9._~-]+|:[A-Za-z_][A-Za-z0-9_]*))+$/;

/**
 * Express's decoding of a parameter (router/lib/layer.js `decodeParam`): a malformed escape is a
 * 400 passed on as Express passes it.
 */
function decodeParam(value: string): string {
  if (value.length === 0 || !value.includes('%')) return value;
  try {
    return decodeURIComponent(value);
  } catch (error) {
    if (error instanceof URIError) Object.assign(error, { message: `Failed to decode param '${value}'`, status: 400, statusCode: 400 });
    throw error;
  }
}

/**
 * The matcher Express 5's router builds for a route (router/lib/layer.js): case-insensitive, the
 * whole path, an optional trailing slash, parameters decoded.
 */
function expressMatcher(path: string): MatchFunction<Record<string, string>> {
  const loose = path === '/' ? path : path.replace(/\/+$/, '');
  return match<Record<string, string>>(loose, { sensitive: false, end: true, trailing: true, decode: decodeParam });
}

/** The lookup key of a simple route or a request path: segment count and first segment, lower-cased. */
function keyOf(segments: string[]): string {
  return `${segments.length}/${(segments[0] ?? '').toLowerCase()}`;
}

/** A path's segments, one trailing slash allowed (Express's non-strict routing); null when it has empty segments. */
function segmentsOf(pathname: string): string[] | null {
  const trimmed = pathname.length > 1 && pathname.endsWith('/') ? pathname.slice(0, -1) : pathname;
  const segments = trimmed.split('/').slice(1);
  return segments.includes('') && trimmed !== '/' ? null : trimmed === '/' ? [] : segments;
}

/**
 * Every controller route in one table, looked up by the request's segment count and first segment
 * instead of Express's walk through one route layer after another (a request to the last of some
 * 250 routes tested each one's pattern in turn: docs/benchmarks.md, figure 14). What a route
 * answers is unchanged: the same path matcher as Express, the first match in registration order,
 * `req.params` and `req.route` set as Express sets them, HEAD served by GET routes, and a request
 * no route takes goes on to the next middleware (Nest's not-found handler). One middleware serves
 * the table, mounted where Express's route layers would have been.
 */
export class RouteTable {
  private readonly byKey = new Map<string, TableRoute[]>();
  /** Routes whose paths have wildcards or optional parts: tried for every request, in order. */
  private readonly complex: TableRoute[] = [];
  private count = 0;

  add(method: string, path: string, handler: RequestHandler): void {
    const route: TableRoute = { method, path, handler, matches: expressMatcher(path), route: { path }, order: this.count++ };
    if (!SIMPLE.test(path)) {
      this.complex.push(route);
      return;
    }
    const key = keyOf(path.split('/').slice(1));
    const list = this.byKey.get(key) ?? [];
    list.push(route);
    this.byKey.set(key, list);
  }

  /** The middleware that answers the table's routes. */
  readonly middleware = (req: Request, res: Response, next: NextFunction): void => {
    let found: { route: TableRoute; params: Record<string, string> } | null;
    try {
      found = this.find(req.method, req.path);
    } catch (error) {
      return next(error);
    }
    if (!found) return next();
    req.params = found.params;
    (req as { route?: unknown }).route = found.route.route;
    try {
      void Promise.resolve(found.route.handler(req, res, next)).catch(next);
    } catch (error) {
      next(error);
    }
  };

  private find(verb: string, pathname: string): { route: TableRoute; params: Record<string, string> } | null {
    const method = verb.toLowerCase();
    const segments = segmentsOf(pathname);
    const keyed = segments === null ? this.everyRoute() : (this.byKey.get(keyOf(segments)) ?? []);
    let i = 0;
    let j = 0;
    // The keyed and the complex routes, merged back into registration order.
    while (i < keyed.length || j < this.complex.length) {
      const route = j >= this.complex.length || (i < keyed.length && keyed[i]!.order < this.complex[j]!.order) ? keyed[i++]! : this.complex[j++]!;
      if (!handles(route.method, method)) continue;
      const result = route.matches(pathname);
      if (result) return { route, params: result.params };
    }
    return null;
  }

  /** A path with empty segments (`//`) is matched against every route, as Express would. */
  private everyRoute(): TableRoute[] {
    return [...this.byKey.values()].flat().sort((a, b) => a.order - b.order);
  }
}

/** Whether a route registered for `routeMethod` answers `method` (router/lib/route.js `_handlesMethod`). */
function handles(routeMethod: string, method: string): boolean {
  return routeMethod === 'all' || routeMethod === method || (method === 'head' && routeMethod === 'get');
}
