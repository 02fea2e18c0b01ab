import { SIMULATED } from '../networks/simulated';

/**
 * New devices use the built-in simulated network and no decoding until told otherwise. Here, not in
 * wire/device.ts, because the network is the domain's (networks/simulated) and wire/ imports no
 * domain folder (docs/architecture.md).
 */
export const DEFAULT_NETWORK_REF = SIMULATED.uid;
export const DEFAULT_DECODER_REF = 1;
