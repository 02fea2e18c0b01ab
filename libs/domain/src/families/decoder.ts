import { textOf } from '../text';
import type { Measurements } from '../wire/measurements';

export interface DecodeResult {
  /** `payload_decoded` of the uplink record. */
  decoded: Record<string, unknown>;
  valid: boolean;
  /** Why the payload was rejected, when `valid` is false. */
  error: string | null;
  measurements: Measurements;
  /**
   * The decoder's own list of errors, when it gives one (a codec's `errors`); absent, the errors are
   * `error` alone. `payloadProblems` reads both.
   */
  errors?: readonly string[];
  /** The decoder's warnings (a codec's `warnings`): the payload still decoded. */
  warnings?: readonly string[];
}

/** At most this many errors and warnings are kept with an uplink, each at most 500 characters. */
export const MAX_PAYLOAD_PROBLEMS = 20;

/**
 * The errors and warnings an uplink keeps (`payload_errors`, `payload_warnings`, docs/api.md §5):
 * the decoder's lists, or the one reason it gave; null for none (what the columns store).
 */
export function payloadProblems(result: DecodeResult): { errors: string[] | null; warnings: string[] | null } {
  const errors = result.errors && result.errors.length > 0 ? result.errors : result.error ? [result.error] : [];
  const warnings = result.warnings ?? [];
  const bounded = (list: readonly string[]) => (list.length === 0 ? null : list.slice(0, MAX_PAYLOAD_PROBLEMS).map((m) => textOf(m)));
  return { errors: bounded(errors), warnings: bounded(warnings) };
}

/** A pure function from payload bytes and port to the decoded record; never throws. */
export type Decoder = (bytes: Uint8Array, port: number) => DecodeResult;

export const NO_MEASUREMENTS: Measurements = Object.freeze({
  temperature: null,
  humidity: null,
  battery_voltage: null,
  battery_percent: null,
  lat: null,
  lon: null,
  alt: null,
  firmware_version: null,
});

/** A payload the decoder refuses: what it read so far, and why. */
export function invalid(decoded: Record<string, unknown>, error: string): DecodeResult {
  return { decoded, valid: false, error, measurements: { ...NO_MEASUREMENTS } };
}
