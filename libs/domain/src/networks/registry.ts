import { CHIRPSTACK } from './chirpstack';
import { HTTP_JSON } from './http-json';
import type { Network, NetworkIngest } from './network';
import { REST } from './rest';
import { SIMULATED } from './simulated';
import { THE_THINGS_STACK } from './the-things-stack';

/**
 * Every network this build knows, the one list everything that differs by network is read from:
 * the api's ingest routes and their OpenAPI text, the kinds an account may add, the command
 * dispatch, and the global `networks` rows (seeded with the same uid, name, kind and `seed`: tested).
 */
export const NETWORKS: readonly Network[] = [SIMULATED, THE_THINGS_STACK, CHIRPSTACK, REST, HTTP_JSON];

/** The network of a `networks.adapter` value, or null for one this build does not know (or none). */
export function networkByKind(kind: string | null | undefined): Network | null {
  return NETWORKS.find((n) => n.kind === kind) ?? null;
}

/** The kinds of network an account may add of its own (POST /user/network), in the registry's order. */
export const ACCOUNT_NETWORK_KINDS: readonly string[] = NETWORKS.flatMap((n) => (n.account ? [n.kind] : []));

/** A network with an ingest route. */
export type IngestNetwork = Network & { readonly ingest: NetworkIngest };

/** The networks that take deliveries, each on its own route. */
export const INGEST_NETWORKS: readonly IngestNetwork[] = NETWORKS.filter((n): n is IngestNetwork => n.ingest !== null);

/** The route of a network's deliveries, as the router and GET /routes name it (`{uid}` for a route by uid). */
export function ingestRouteOf(ingest: NetworkIngest): { method: 'POST'; path: string } {
  return { method: 'POST', path: `/ingest/${ingest.path}${ingest.byUid ? '/{uid}' : ''}` };
}

/** The name of the handler that serves a network's route (its operationId's verb): the path in camelCase. */
export function ingestHandlerName(ingest: NetworkIngest): string {
  return ingest.path.replace(/[-_]+([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}
