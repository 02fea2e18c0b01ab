import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { type DecodeResult, decoderByName, rawDecoder } from '@dts/domain';
import { CodecSandbox } from './codec-sandbox';

/** The decoder of a device: a built-in one by name, or an account's own codec script. */
export interface DecoderRef {
  uid: number;
  name: string;
  script: string | null;
}

/**
 * Decodes payloads for ingestion, re-decoding and tests alike. A decoder this build does not
 * implement decodes nothing and says why, so the uplink is still stored.
 */
@Injectable()
export class DecodingService implements OnApplicationShutdown {
  constructor(private readonly sandbox: CodecSandbox) {}

  decode(decoder: DecoderRef | null, payload: Uint8Array, port: number): DecodeResult {
    if (decoder === null) return rawDecoder(payload, port);
    if (decoder.script !== null) return this.sandbox.decode(`decoder-${decoder.uid}`, decoder.script, payload, port);
    const builtIn = decoderByName(decoder.name);
    if (!builtIn) return { ...rawDecoder(payload, port), valid: false, error: `decoder "${decoder.name}" is not available` };
    return builtIn(payload, port);
  }

  onApplicationShutdown(): void {
    this.sandbox.close();
  }
}
