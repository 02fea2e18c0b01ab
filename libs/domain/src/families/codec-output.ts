import { textOf } from '../text';
import { measurementsFrom } from './codec-measurements';
import { type DecodeResult, MAX_PAYLOAD_PROBLEMS, NO_MEASUREMENTS } from './decoder';

/**
 * Turns what a codec's decodeUplink returned (`{data, warnings, errors}` in the LoRaWAN codec
 * convention) into a decode result; anything else is junk and makes the uplink invalid. `normalized`
 * is what the codec's normalizeUplink({data}) returned, when it has one: the measurements read it
 * first (codec-measurements.ts).
 */
export function fromCodecOutput(output: unknown, normalized?: unknown): DecodeResult {
  if (typeof output !== 'object' || output === null || Array.isArray(output)) {
    return { decoded: {}, valid: false, error: 'the codec returned no object', measurements: { ...NO_MEASUREMENTS } };
  }
  const { data, errors, warnings } = output as { data?: unknown; errors?: unknown; warnings?: unknown };
  const errorList = Array.isArray(errors)
    ? errors
        .slice(0, MAX_PAYLOAD_PROBLEMS)
        .map((m) => textOf(m))
        .filter(Boolean)
    : [];
  const warningList = Array.isArray(warnings)
    ? warnings
        .slice(0, MAX_PAYLOAD_PROBLEMS)
        .map((m) => textOf(m))
        .filter(Boolean)
    : [];
  if (errorList.length > 0)
    return {
      decoded: typeof data === 'object' && data !== null ? (data as Record<string, unknown>) : {},
      valid: false,
      error: textOf(errorList.join('; ')),
      measurements: { ...NO_MEASUREMENTS },
      errors: errorList,
      warnings: warningList,
    };
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    return { decoded: {}, valid: false, error: 'the codec returned no data object', measurements: { ...NO_MEASUREMENTS } };
  }
  const decoded = data as Record<string, unknown>;
  // Warnings are kept with the uplink (payload_warnings), beside the decoded data, not in it.
  return { decoded, valid: true, error: null, measurements: measurementsFrom(decoded, normalized), warnings: warningList };
}
