import type { CommandSpec } from './commands';
import type { Decoder } from './decoder';

/**
 * A device family the platform ships (docs/api.md §9): its decoder, the named downlink commands
 * its encoder offers, and beside them in `families/<name>/` the uplink encoder (the decoder's
 * inverse, for demo data and simulators) and the test vectors. To add one: a folder, a line in
 * `registry.ts`, and a migration seeding its `decoders` row (docs/architecture.md).
 */
export interface DeviceFamily {
  /** The seeded `decoders` row: devices name the family by this uid (decoder_ref). */
  readonly uid: number;
  /** The row's name; the decoder's name everywhere (datamodel, metrics). Stored: never rename. */
  readonly name: string;
  readonly decode: Decoder;
  /** Named commands (`POST /user/device/command/{eui} {command, params}`); empty when it takes none. */
  readonly commands: readonly CommandSpec[];
}
