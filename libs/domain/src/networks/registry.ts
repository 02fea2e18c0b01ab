import { CHIRPSTACK } from './chirpstack';
import { HTTP_JSON } from './http-json';
import type { Network } from './network';
import { REST } from './rest';
import { SIMULATED } from './simulated';
import { THE_THINGS_STACK } from './the-things-stack';

/** Every network this build knows; each has a global `networks` row seeded with the same uid, name and kind (tested). */
export const NETWORKS: readonly Network[] = [SIMULATED, THE_THINGS_STACK, CHIRPSTACK, REST, HTTP_JSON];

/** The network of a `networks.adapter` value, or null for one this build does not know (or none). */
export function networkByKind(kind: string | null): Network | null {
  return NETWORKS.find((n) => n.kind === kind) ?? null;
}
