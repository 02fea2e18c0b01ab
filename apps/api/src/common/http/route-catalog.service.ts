import { Inject, Injectable, RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import type { RouteAuthLevel, RouteWire } from '@dts/domain';
import { APP_CONFIG, type AppConfig } from '@dts/platform';
import { isPersonalRoute, neededRight, neededRole, routeAuthLevel } from '../auth/auth.guard';

const joinPath = (...parts: (string | undefined)[]) =>
  `/${parts
    .flatMap((p) => (p ?? '').split('/'))
    .filter(Boolean)
    .join('/')}`.replace(/:([A-Za-z_]+)/g, '{$1}');

/** A route as declared by its decorators, and the credentials it needs in this configuration. */
export interface CatalogRoute extends RouteWire {
  declared: RouteAuthLevel;
}

/**
 * Every route with its auth level, read from the router's own metadata, so that GET /routes, the
 * OpenAPI security and the auth-level test cannot drift from the code. In common/, not in the
 * system module that serves GET /routes and provides it, because the OpenAPI document
 * (common/openapi) reads it too and common/ imports no module. The level shown is what the
 * route needs as configured: a `metrics` route without METRICS_TOKEN answers anyone, so it is
 * `none` (saying `metrics` there told a reader it was guarded when it was not).
 */
@Injectable()
export class RouteCatalog {
  private cached: CatalogRoute[] | null = null;

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly reflector: Reflector,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** GET /routes: each route with the credentials it needs in this configuration. */
  routes(): RouteWire[] {
    return this.catalog().map(({ method, path, auth, role, personal, right }) => ({ method, path, auth, role, personal, right }));
  }

  /** The routes with their declared level besides (the OpenAPI document needs both). */
  catalog(): CatalogRoute[] {
    if (this.cached) return this.cached;
    const routes: CatalogRoute[] = [];
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
            const targets: [Function, Function] = [handler, type];
            const declared = routeAuthLevel(this.reflector, targets);
            const verb = RequestMethod[method] ?? String(method);
            const personal = (declared === 'user' || declared === 'ingest') && isPersonalRoute(this.reflector, targets);
            const role = (declared === 'user' || declared === 'ingest') && !personal ? neededRole(this.reflector, targets, verb) : null;
            const right = neededRight(this.reflector, targets, verb);
            routes.push({ method: verb, path: joinPath(prefix, path), auth: this.needed(declared), declared, role, personal, right });
          }
        }
      }
    }
    routes.sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method));
    this.cached = routes;
    return routes;
  }

  /** What a route of this declared level asks of a caller here (the guard's own rule: metricsAccess). */
  private needed(declared: RouteAuthLevel): RouteAuthLevel {
    return declared === 'metrics' && this.config.metricsToken === null ? 'none' : declared;
  }
}
