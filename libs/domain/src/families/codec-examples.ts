import type { CodecExample, CodecExampleResult } from '../wire/codec';

/** At most this many examples per codec, each input at most EXAMPLE_MAX_BYTES bytes. */
export const CODEC_EXAMPLES_MAX = 100;
export const EXAMPLE_MAX_BYTES = 256;

/**
 * Whether a codec's answer is the example's output, as The Things Network's device repository
 * checks its codecs: the same JSON, with absent `errors` and `warnings` the same as empty lists
 * (an expected output that lists neither accepts a codec that returns `warnings: []`). A
 * normalizeUplink answer is compared as a list of measurements (an object is a list of one).
 */
export function judgeExample(example: CodecExample, actual: unknown, normalizedActual: unknown = null): CodecExampleResult {
  const outcome = (passed: boolean, message: string | null): CodecExampleResult => ({ passed, actual, normalized_actual: normalizedActual, message });
  const expected = example.kind === 'downlink_encode' ? example.output : withLists(example.output);
  const got = example.kind === 'downlink_encode' ? withLists(actual, expected) : withLists(actual);
  const difference = firstDifference(expected, got, 'output');
  if (difference) return outcome(false, difference);
  if (example.kind === 'uplink' && example.normalized_output !== null && example.normalized_output !== undefined) {
    const normalized = firstDifference(asList(example.normalized_output), asList(normalizedActual), 'normalized output');
    if (normalized) return outcome(false, normalized);
  }
  return outcome(true, null);
}

/** `errors` and `warnings` present as lists (empty when absent), unless `like` shows them absent and the list is empty. */
function withLists(value: unknown, like?: unknown): unknown {
  if (!isObject(value)) return value;
  const out: Record<string, unknown> = { ...value };
  for (const key of ['errors', 'warnings']) {
    if (out[key] === undefined || out[key] === null) out[key] = [];
    if (like !== undefined && isObject(like) && !(key in like) && Array.isArray(out[key]) && (out[key] as unknown[]).length === 0) delete out[key];
  }
  return out;
}

/** A normalized payload `{data: x}` as `{data: [x]}` when x is one measurement. */
function asList(value: unknown): unknown {
  if (!isObject(value) || !('data' in value)) return value;
  const data = value.data;
  return { ...(withLists(value) as Record<string, unknown>), data: Array.isArray(data) ? data : [data] };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The first place where two JSON values differ, as a sentence naming its path; null when equal. */
export function firstDifference(expected: unknown, actual: unknown, path: string): string | null {
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return `${path}: expected a list, got ${show(actual)}`;
    if (expected.length !== actual.length) return `${path}: expected ${expected.length} elements, got ${actual.length}`;
    for (let i = 0; i < expected.length; i++) {
      const d = firstDifference(expected[i], actual[i], `${path}[${i}]`);
      if (d) return d;
    }
    return null;
  }
  if (isObject(expected)) {
    if (!isObject(actual)) return `${path}: expected an object, got ${show(actual)}`;
    for (const key of Object.keys(expected)) {
      if (!(key in actual) && expected[key] !== undefined) return `${path}.${key}: missing`;
      const d = firstDifference(expected[key], actual[key], `${path}.${key}`);
      if (d) return d;
    }
    for (const key of Object.keys(actual)) if (!(key in expected) && actual[key] !== undefined) return `${path}.${key}: not expected (${show(actual[key])})`;
    return null;
  }
  if (typeof expected === 'number' && typeof actual === 'number') {
    // The YAML's numbers are decimal text; the codec's are doubles: equal to 12 significant digits.
    return expected === actual || Math.abs(expected - actual) <= 1e-12 * Math.max(Math.abs(expected), Math.abs(actual))
      ? null
      : `${path}: expected ${expected}, got ${actual}`;
  }
  return Object.is(expected, actual) || (expected === null && actual === undefined) ? null : `${path}: expected ${show(expected)}, got ${show(actual)}`;
}

function show(value: unknown): string {
  if (value === undefined) return 'nothing';
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
