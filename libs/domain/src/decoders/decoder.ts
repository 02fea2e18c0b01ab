/** Measurements a decoder can derive; they become the uplink record's and data rows' members. */
export interface Measurements {
  temperature: number | null;
  humidity: number | null;
  battery_voltage: number | null;
  battery_percent: number | null;
  lat: number | null;
  lon: number | null;
  alt: number | null;
  firmware_version: string | null;
}

export interface DecodeResult {
  /** `payload_decoded` of the uplink record. */
  decoded: Record<string, unknown>;
  valid: boolean;
  /** Why the payload was rejected, when `valid` is false. */
  error: string | null;
  measurements: Measurements;
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
