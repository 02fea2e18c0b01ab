import type { ExecutionContext } from '@nestjs/common';

/** A route's handler and controller, the pair Nest's Reflector reads decorators from. */
export type RouteTargets = [handler: Function, controller: Function];

/**
 * What `read` makes of a route's decorators, read once per route and then kept: decorators do not
 * change after start-up, and reading them through the Reflector on every request (two metadata
 * look-ups per key, up the prototype chain) cost the guards more than their decisions.
 */
export function perRoute<T>(read: (targets: RouteTargets) => T): (context: ExecutionContext) => T {
  const byHandler = new WeakMap<Function, WeakMap<Function, T>>();
  return (context) => {
    const handler = context.getHandler();
    const controller = context.getClass();
    let byController = byHandler.get(handler);
    if (!byController) byHandler.set(handler, (byController = new WeakMap()));
    if (!byController.has(controller)) byController.set(controller, read([handler, controller]));
    return byController.get(controller)!;
  };
}
