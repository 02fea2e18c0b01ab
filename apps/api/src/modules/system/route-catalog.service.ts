import { Injectable, RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import type { RouteWire } from '@dts/domain';
import { routeAuthLevel } from '../../common/auth/auth.guard';

const joinPath = (...parts: (string | undefined)[]) =>
  `/${parts
    .flatMap((p) => (p ?? '').split('/'))
    .filter(Boolean)
    .join('/')}`.replace(/:([A-Za-z_]+)/g, '{$1}');

/**
 * Every route with its auth level, read from the router's own metadata, so that GET /routes, the
 * OpenAPI security and the auth-level test cannot drift from the code.
 */
@Injectable()
export class RouteCatalog {
  private cached: RouteWire[] | null = null;

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly reflector: Reflector,
  ) {}

  routes(): RouteWire[] {
    if (this.cached) return this.cached;
    const routes: RouteWire[] = [];
    for (const wrapper of this.discovery.getControllers()) {
      const instance = wrapper.instance as object | undefined;
      const type = wrapper.metatype as Function | undefined;
      if (!instance || !type) continue;
      const prefixes = ([] as (string | undefined)[]).concat(Reflect.getMetadata(PATH_METADATA, type));
      const proto = Object.getPrototypeOf(instance) as Record<string, Function>;
      for (const name of this.scanner.getAllMethodNames(proto)) {
        const handler = proto[name];
        if (!handler) continue;
        const method = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
        if (method === undefined) continue;
        const paths = ([] as string[]).concat(Reflect.getMetadata(PATH_METADATA, handler) ?? '');
        for (const prefix of prefixes) {
          for (const path of paths) {
            routes.push({
              method: RequestMethod[method] ?? String(method),
              path: joinPath(prefix, path),
              auth: routeAuthLevel(this.reflector, [handler, type]),
            });
          }
        }
      }
    }
    routes.sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method));
    this.cached = routes;
    return routes;
  }
}
