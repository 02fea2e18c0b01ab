import type { CodecExample, CodecExampleResult, DecodeResult } from '@dts/domain';
import { judgeExample } from '@dts/domain';
import { performance } from 'node:perf_hooks';
import type { QuickJSContext, QuickJSRuntime } from 'quickjs-emscripten';
import { CODEC_LIMITS, type CodecTrial } from './codec-limits';
import { DECODED_MAX_BYTES } from './codec-output-limits';

/** A codec loaded in a QuickJS runtime of its own. */
export interface LoadedCodec {
  runtime: QuickJSRuntime;
  context: QuickJSContext;
}

export type CallResult = { ok: true; value: unknown } | { ok: false; error: string };

/** A decode as an uplink stores it, beside the codec's output and normalized payload as it returned them (null when it failed). */
export interface DecodeRun {
  result: DecodeResult;
  output: unknown;
  normalized: unknown;
  callFailed: boolean;
}

/** What a trial may do with a sandbox: load, call and drop codecs, none of them cached. */
export interface SandboxCalls {
  load(script: string): LoadedCodec | string;
  call(entry: LoadedCodec, code: string, deadlineMs?: number): CallResult;
  decode(entry: LoadedCodec, bytes: Uint8Array, fPort: number): DecodeRun;
  dispose(entry: LoadedCodec): void;
  /** Part of loading: judged by the load deadline, not by a call's. */
  withoutDecodeUplink(entry: LoadedCodec, script: string): string | null;
}

/**
 * Runs a draft script, loaded for this alone and dropped after: decodes `payload` when given, then
 * runs `examples` in order until `budgetMs` of time (loading included) is spent.
 */
export function runTrial(
  sandbox: SandboxCalls,
  script: string,
  payload: { bytes: Uint8Array; fPort: number } | null,
  examples: readonly CodecExample[],
  budgetMs: number,
): CodecTrial {
  const started = performance.now();
  const spent = () => performance.now() - started;
  const fail = (problem: string): CodecTrial => ({ problem, decoded: null, examples: examples.map(() => null), usedMs: spent() });
  if (Buffer.byteLength(script) > CODEC_LIMITS.maxScriptBytes) return fail(`the script exceeds ${CODEC_LIMITS.maxScriptBytes} bytes`);
  const entry = sandbox.load(script);
  if (typeof entry === 'string') return fail(entry);
  try {
    const problem = sandbox.withoutDecodeUplink(entry, script);
    if (problem) return fail(problem);
    // A call that fails leaves the context in an unknown state: the rest run in a fresh one.
    let current: LoadedCodec | null = entry;
    const fresh = (): LoadedCodec | string => {
      if (current) return current;
      const again = sandbox.load(script);
      if (typeof again !== 'string') current = again;
      return again;
    };
    const drop = () => {
      if (current && current !== entry) sandbox.dispose(current);
      current = null;
    };
    let decoded: CodecTrial['decoded'] = null;
    if (payload) {
      const run = sandbox.decode(entry, payload.bytes, payload.fPort);
      decoded = { output: run.output, normalized: run.normalized, result: run.result };
      if (run.callFailed) current = null;
    }
    const results = examples.map((example): CodecExampleResult | null => {
      if (spent() >= budgetMs) return null;
      const loaded = fresh();
      if (typeof loaded === 'string') return { passed: false, actual: null, normalized_actual: null, message: `codec: ${loaded}` };
      const outcome = runExample(sandbox, loaded, example);
      if (outcome.failedCall) drop();
      return outcome.result;
    });
    drop();
    return { problem: null, decoded, examples: results, usedMs: spent() };
  } finally {
    sandbox.dispose(entry);
  }
}

/** One example in a loaded codec; `failedCall` when the call threw or hit a limit. */
function runExample(sandbox: SandboxCalls, entry: LoadedCodec, example: CodecExample): { result: CodecExampleResult; failedCall: boolean } {
  const failed = (message: string) => ({ result: { passed: false, actual: null, normalized_actual: null, message }, failedCall: true });
  if (example.kind === 'uplink') {
    const run = sandbox.decode(entry, Uint8Array.from(example.input.bytes ?? []), example.input.fPort ?? 0);
    if (run.callFailed) return failed(run.result.error ?? 'the codec failed');
    if (run.output === null) return { ...failed(run.result.error ?? 'the codec returned nothing'), failedCall: false };
    return { result: judgeExample(example, run.output, run.normalized), failedCall: false };
  }
  const fn = example.kind === 'downlink_encode' ? 'encodeDownlink' : 'decodeDownlink';
  const kind = sandbox.call(entry, `typeof ${fn}`);
  if (!kind.ok || kind.value !== 'function')
    return { result: { passed: false, actual: null, normalized_actual: null, message: `the codec has no ${fn} function` }, failedCall: false };
  const input = example.kind === 'downlink_encode' ? { data: example.input.data } : { bytes: example.input.bytes ?? [], fPort: example.input.fPort ?? 0 };
  const r = sandbox.call(
    entry,
    `(function(){var s=JSON.stringify(${fn}(${JSON.stringify(input)}));return typeof s==='string'&&s.length>${DECODED_MAX_BYTES}?s.length:s})()`,
  );
  if (!r.ok) return failed(`codec: ${r.error}`);
  if (typeof r.value === 'number') return failed(`codec: the output exceeds ${DECODED_MAX_BYTES / 1024} KiB`);
  let actual: unknown = null;
  try {
    actual = typeof r.value === 'string' ? JSON.parse(r.value) : null;
  } catch {
    actual = null;
  }
  return { result: judgeExample(example, actual), failedCall: false };
}
