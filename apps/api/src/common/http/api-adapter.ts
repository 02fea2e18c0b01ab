import { ExpressAdapter } from '@nestjs/platform-express';
import type { RequestHandler } from 'express';
import { envelopeOf } from './envelope';
import { RouteTable } from './route-table';

/** The verbs Nest registers controller routes with (its RouterMethodFactory's names). */
const VERBS = ['get', 'post', 'put', 'delete', 'patch', 'head', 'options', 'all', 'search'] as const;

/**
 * Express as Nest's HTTP adapter, with the two things every route shares done once for all:
 * - **Routing**: the controller routes go into one RouteTable, served by one middleware mounted
 *   where the first route would have been, rather than one Express layer per route.
 * - **The envelope** (docs/api.md §1): a handler's result is wrapped where Nest writes it
 *   (`reply`), not by a global interceptor — with no interceptor, Nest calls a handler without
 *   building an observable chain around it. A handler that writes its own response (`@Res()`:
 *   streams, files, redirects) never reaches `reply`, so it is never wrapped; the exception filter
 *   writes the error envelope itself.
 */
export class ApiExpressAdapter extends ExpressAdapter {
  private readonly routes = new RouteTable();
  private mounted = false;

  constructor() {
    super();
    for (const verb of VERBS) {
      const own = (this as unknown as Record<string, (...args: unknown[]) => unknown>)[verb]!.bind(this);
      // A route is a path and one handler; anything else (Express's `app.get(setting)`) goes through.
      (this as unknown as Record<string, unknown>)[verb] = (...args: unknown[]) =>
        args.length === 2 && typeof args[0] === 'string' && typeof args[1] === 'function' ? this.route(verb, args[0], args[1] as RequestHandler) : own(...args);
    }
  }

  override reply(response: unknown, body: unknown, statusCode?: number): unknown {
    return super.reply(response, envelopeOf(body), statusCode);
  }

  private route(verb: string, path: string, handler: RequestHandler): void {
    if (!this.mounted) {
      // Every middleware the application installed before its routes runs first, as it would.
      this.getInstance<{ use(handler: RequestHandler): void }>().use(this.routes.middleware);
      this.mounted = true;
    }
    this.routes.add(verb, path, handler);
  }
}
