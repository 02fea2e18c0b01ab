/** Which function of a codec an example exercises (the device repository's codec YAML sections). */
export type CodecExampleKind = 'uplink' | 'downlink_encode' | 'downlink_decode';

/**
 * One of a codec's own test cases, from the `examples` of its device-repository codec YAML
 * (docs/api.md §13): an input and the output the codec must give for it.
 */
export interface CodecExample {
  kind: CodecExampleKind;
  description: string;
  /** `{fPort, bytes}` for uplink and downlink_decode, `{data}` for downlink_encode. */
  input: { fPort?: number; bytes?: number[]; data?: unknown };
  /** What the function must return: `{data, warnings?, errors?}`, or `{bytes, fPort}` for an encoder. */
  output: unknown;
  /** What normalizeUplink must return for an uplink example (`{data: [...]}`), or null. */
  normalized_output: unknown;
}

/** How an example came out the last time it ran. */
export interface CodecExampleResult {
  passed: boolean;
  /** What the codec returned (null when it failed to run). */
  actual: unknown;
  /** What normalizeUplink returned, for an uplink example with a normalized_output. */
  normalized_actual: unknown;
  /** Why it failed: a difference, the function missing, or the sandbox's limit it hit. */
  message: string | null;
}

/** An example with its result for the stored script (null: not run, the CPU budget was spent). */
export interface CodecExampleWire extends CodecExample {
  result: CodecExampleResult | null;
}

/** A vendor codec of the account (GET/POST /user/codec); its uid is usable as a device's decoder_ref. */
export interface CodecWire {
  uid: number;
  name: string;
  description: string;
  script: string;
  /** The codec's own test cases with their results for this script; [] without any. */
  examples: CodecExampleWire[];
  updated_unix: number;
}

/** The sandbox's limits, as a codec meets them (docs/api.md §13, §17). */
export interface CodecLimitsWire {
  max_script_bytes: number;
  memory_bytes: number;
  stack_bytes: number;
  call_ms: number;
  /** Loading a script may take this long: 200 ms and 1 ms per KiB of script. */
  load_ms: number;
  /** Codec time one request may spend (CODEC_CPU_MS_PER_DELIVERY). */
  cpu_ms_per_request: number;
  /** Codec time an account may spend per minute (CODEC_CPU_MS_PER_MINUTE). */
  cpu_ms_per_minute: number;
}

/** What a draft script did with the given bytes: POST /user/codec/try (nothing is stored). */
export interface CodecTryWire {
  /** Why the script cannot serve as a codec (syntax, no decodeUplink, a limit while loading), or null. */
  problem: string | null;
  /** The decode of the given bytes; null without bytes, or when the script has a problem. */
  decoded: {
    /** What decodeUplink returned, as JSON (null when it failed). */
    output: unknown;
    /** What normalizeUplink returned, when the codec has one. */
    normalized: unknown;
    /** Whether an uplink with these bytes would be stored valid, and why not. */
    valid: boolean;
    error: string | null;
    /** payload_decoded as it would be stored, and the measurements read from it. */
    payload_decoded: Record<string, unknown>;
    /** payload_errors and payload_warnings as they would be stored ([] for none). */
    payload_errors: string[];
    payload_warnings: string[];
    measurements: Record<string, unknown>;
  } | null;
  /** The examples of `examples_of` run with this script. */
  examples: CodecExampleWire[];
  /** Codec time this request spent (loading included), charged to the account's budget. */
  cpu_ms: number;
  limits: CodecLimitsWire;
}
