import { CAYENNE_LPP } from './cayenne-lpp';
import type { CommandSpec } from './commands';
import type { Decoder } from './decoder';
import { DT_CAMERA_TRAP } from './dt-camera-trap';
import { DT_ENVIRONMENT } from './dt-environment';
import { DT_TRACKER } from './dt-tracker';
import type { DeviceFamily } from './family';
import { RAW } from './raw';

/** Every device family this build ships; each has a `decoders` row seeded with the same uid and name (tested). */
export const FAMILIES: readonly DeviceFamily[] = [RAW, CAYENNE_LPP, DT_TRACKER, DT_ENVIRONMENT, DT_CAMERA_TRAP];

/** The family of that decoder name, or null when this build has none of it. */
export function familyByName(name: string | null): DeviceFamily | null {
  return FAMILIES.find((f) => f.name === name) ?? null;
}

/** The decoder of that name, or null when this build has no implementation of it. */
export function decoderByName(name: string): Decoder | null {
  return familyByName(name)?.decode ?? null;
}

export function implementedDecoders(): string[] {
  return FAMILIES.map((f) => f.name);
}

/** The named commands of a device whose decoder is that family's (none without one). */
export function commandsFor(decoderName: string | null): readonly CommandSpec[] {
  return familyByName(decoderName)?.commands ?? [];
}
