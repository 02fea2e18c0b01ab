import type { Request } from 'express';

/**
 * The route template the router matched (`/user/device/:eui`), never the URL: a label per EUI
 * would grow without bound. A request no route matched is `ROUTE_NOT_FOUND`; one answered before
 * routing (a body too large or not JSON, Swagger UI's files) is `UNROUTED`.
 */
export function routeTemplate(req: Request, status: number): string {
  const path = (req.route as { path?: unknown } | undefined)?.path;
  // Express leaves req.route at the last route layer entered; a route-bound middleware mounted on
  // a wildcard would be such a layer, and no controller route of ours has a wildcard.
  if (typeof path === 'string' && !path.includes('*')) return path;
  return status === 404 ? 'ROUTE_NOT_FOUND' : 'UNROUTED';
}
