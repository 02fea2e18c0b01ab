import { Injectable } from '@nestjs/common';
import { type DecodeResult, decoderByName, rawDecoder } from '@dts/domain';

/**
 * Decodes a payload with a device's decoder by name. A decoder this build does not implement
 * decodes nothing and says why, so the uplink is still stored.
 */
@Injectable()
export class DecodingService {
  decode(decoderName: string | null, payload: Uint8Array, port: number): DecodeResult {
    if (decoderName === null) return rawDecoder(payload, port);
    const decoder = decoderByName(decoderName);
    if (!decoder) return { ...rawDecoder(payload, port), valid: false, error: `decoder "${decoderName}" is not available` };
    return decoder(payload, port);
  }
}
