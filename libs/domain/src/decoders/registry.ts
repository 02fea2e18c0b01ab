import { cayenneLppDecoder } from './cayenne-lpp';
import type { Decoder } from './decoder';
import { dtCameraTrapDecoder } from './dt-camera-trap';
import { dtEnvironmentDecoder } from './dt-environment';
import { dtTrackerDecoder } from './dt-tracker';
import { rawDecoder } from './raw';

/** Built-in decoders by their datamodel name (the `decoders.name` column). */
const DECODERS: Readonly<Record<string, Decoder>> = {
  raw: rawDecoder,
  'Cayenne LPP': cayenneLppDecoder,
  'DT Tracker': dtTrackerDecoder,
  'DT Environment': dtEnvironmentDecoder,
  'DT Camera Trap': dtCameraTrapDecoder,
};

/** The decoder of that name, or null when this build has no implementation of it. */
export function decoderByName(name: string): Decoder | null {
  return Object.prototype.hasOwnProperty.call(DECODERS, name) ? DECODERS[name] : null;
}

export function implementedDecoders(): string[] {
  return Object.keys(DECODERS);
}
