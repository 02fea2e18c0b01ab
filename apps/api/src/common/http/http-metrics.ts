import type { MetricsService } from '@dts/platform';
import type { NextFunction, Request, Response } from 'express';

/**
 * The route template the router matched (`/user/device/:eui`), never the URL: a label per EUI
 * would grow without bound. A request no route matched is `ROUTE_NOT_FOUND`; one answered before
 * routing (a body too large or not JSON, Swagger UI's files) is `UNROUTED`.
 */
export function routeTemplate(req: Request, status: number): string {
  const path = (req.route as { path?: unknown } | undefined)?.path;
  // Express leaves req.route at the last route layer entered. Nest mounts route-bound middleware
  // (nestjs-pino's, on `{/*splat}`) as such a layer; no controller route of ours has a wildcard.
  if (typeof path === 'string' && !path.includes('*')) return path;
  return status === 404 ? 'ROUTE_NOT_FOUND' : 'UNROUTED';
}

/** Times every request from its first middleware to the end of its response. */
export function httpMetricsMiddleware(metrics: MetricsService) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const end = metrics.httpDuration.startTimer();
    let done = false;
    const observe = () => {
      if (done) return;
      done = true;
      end({ method: req.method, route: routeTemplate(req, res.statusCode), status: String(res.statusCode) });
    };
    res.once('finish', observe);
    // A client that hangs up still took that long; its status is what was set by then.
    res.once('close', observe);
    next();
  };
}
