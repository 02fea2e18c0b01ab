import type { Decoder } from './decoder';
import { rawDecoder } from './raw';

/** Decoders by their datamodel name (the `decoders.name` column). */
const DECODERS: Readonly<Record<string, Decoder>> = {
  raw: rawDecoder,
};

/** The decoder of that name, or null when this build has no implementation of it. */
export function decoderByName(name: string): Decoder | null {
  return Object.prototype.hasOwnProperty.call(DECODERS, name) ? DECODERS[name] : null;
}

export function implementedDecoders(): string[] {
  return Object.keys(DECODERS);
}
