import { type CodecExample, fromCodecOutput, type DecodeResult, NO_MEASUREMENTS, textOf } from '@dts/domain';
import { createHash } from 'node:crypto';
import { type QuickJSContext, type QuickJSWASMModule, shouldInterruptAfterDeadline } from 'quickjs-emscripten';
import { CODEC_LIMITS, type CodecTrial, loadDeadlineMs } from './codec-limits';
import { DECODED_MAX_BYTES, decodedTextProblem } from './codec-output-limits';
import { describe, OUT_OF_MEMORY, storable } from './codec-errors';
import { type CallResult, type DecodeRun, type LoadedCodec as Loaded, runTrial, type SandboxCalls } from './codec-trial';

/** Told the absolute deadline (epoch ms) of each call into QuickJS as it starts, and 0 when it ends. */
export type CallWatch = (deadline: number) => void;

const failed = (error: string): DecodeResult => ({ decoded: {}, valid: false, error, measurements: { ...NO_MEASUREMENTS } });

/** The codec a fresh sandbox warms up with: the convention's three functions, doing a little of everything. */
const WARM_UP_CODEC = `
function decodeUplink(input) {
  var sum = 0;
  for (var i = 0; i < input.bytes.length; i++) sum += input.bytes[i];
  return { data: { temperature: sum / 10, bytes: input.bytes.slice(0), text: String.fromCharCode(65 + sum % 26) }, warnings: [], errors: [] };
}
function normalizeUplink(input) { return { data: { air: { temperature: input.data.temperature } } }; }
function encodeDownlink(input) { return { bytes: [input.data.n & 255], fPort: 1, warnings: [], errors: [] }; }`;
const WARM_UP_EXAMPLES: readonly CodecExample[] = [
  { kind: 'uplink', description: 'warm-up', input: { fPort: 1, bytes: [1, 2, 3] }, output: { data: { temperature: 0.6 } }, normalized_output: null },
  { kind: 'downlink_encode', description: 'warm-up', input: { data: { n: 1 } }, output: { bytes: [1], fPort: 1 }, normalized_output: null },
];

/**
 * An application FPort from an encoder's answer: `fPort`, a number, in the convention; Tektelic's
 * published encoders answer `port` instead, as decimal text (`{bytes, port: "100"}`, their
 * configuration port), read when `fPort` is absent. Anything else is no port (the default applies).
 */
function encodedPort(value: unknown, text: boolean): number | null {
  const port = typeof value === 'number' ? value : text && typeof value === 'string' && /^\d{1,3}$/.test(value) ? Number(value) : NaN;
  return Number.isInteger(port) && port >= 1 && port <= 223 ? port : null;
}

/**
 * Runs vendor codecs (`decodeUplink({bytes, fPort})`, the LoRaWAN codec convention) in QuickJS
 * compiled to WebAssembly: no Node APIs, no network, a memory cap and a deadline per call. A codec
 * that throws, loops, exhausts its memory or returns junk yields an invalid result; the process is
 * never at risk. Loaded codecs are kept per key (decoder uid and script digest) for reuse.
 */
export class CodecSandbox {
  private readonly loaded = new Map<string, Loaded>();
  private quickjs: QuickJSWASMModule | null;
  private replacing: Promise<void> | null = null;
  /** What a trial may do with this sandbox: load, call and drop codecs that are never cached. */
  private readonly calls: SandboxCalls = {
    load: (script) => this.load(script),
    call: (entry, code, deadlineMs) => this.call(entry, code, deadlineMs),
    decode: (entry, bytes, fPort) => this.decodeIn(entry, bytes, fPort),
    dispose: (entry) => this.dispose(entry),
    withoutDecodeUplink: (entry, script) => this.withoutDecodeUplink(entry, script),
  };

  /**
   * `fresh` makes a new QuickJS module: should the WebAssembly module itself ever fail (an abort
   * while tearing a runtime down), it is dropped and replaced rather than reused.
   */
  constructor(
    quickjs: QuickJSWASMModule,
    private readonly fresh: () => Promise<QuickJSWASMModule>,
    private readonly watch: CallWatch = () => undefined,
  ) {
    this.quickjs = quickjs;
  }

  private broken(): void {
    this.loaded.clear();
    this.quickjs = null;
    this.replacing ??= this.fresh().then(
      (module) => {
        this.quickjs = module;
        this.replacing = null;
      },
      () => {
        this.replacing = null;
      },
    );
  }

  /** Why the script cannot serve as a codec, or null when it can. */
  check(script: string): string | null {
    if (Buffer.byteLength(script) > CODEC_LIMITS.maxScriptBytes) return `the script exceeds ${CODEC_LIMITS.maxScriptBytes} bytes`;
    const probe = this.load(script);
    if (typeof probe === 'string') return probe;
    const problem = this.withoutDecodeUplink(probe, script);
    this.dispose(probe);
    return problem;
  }

  /** Part of loading: judged by the load deadline, not by a call's. */
  private withoutDecodeUplink(entry: Loaded, script: string): string | null {
    const kind = this.call(entry, 'typeof decodeUplink', loadDeadlineMs(script));
    return kind.ok && kind.value === 'function' ? null : 'the script must define a function decodeUplink(input)';
  }

  /**
   * Runs a small codec through every path a request takes (load, decode with normalizeUplink,
   * encode, an example, disposal), caching nothing: the first script a fresh QuickJS module loads
   * pays for V8 compiling the module's WebAssembly functions as they are first called — 30–60 ms
   * on a quiet 2-core machine, and a 4-line script once failed its 201 ms load limit on a busy one
   * (issue 28). A thread does this before it takes work, so no request's limits count it.
   */
  warmUp(): void {
    this.trial(WARM_UP_CODEC, { bytes: Uint8Array.of(1, 2, 3), fPort: 1 }, WARM_UP_EXAMPLES, CODEC_LIMITS.loadMs);
    const entry = this.load(WARM_UP_CODEC);
    if (typeof entry === 'string') return;
    this.call(entry, `JSON.stringify(encodeDownlink(${JSON.stringify({ data: { n: 1 } })}))`);
    this.dispose(entry);
  }

  /** Runs a draft script (`runTrial`): drafts never take a place in the cache. */
  trial(script: string, payload: { bytes: Uint8Array; fPort: number } | null, examples: readonly CodecExample[], budgetMs: number): CodecTrial {
    return runTrial(this.calls, script, payload, examples, budgetMs);
  }

  decode(key: string, script: string, bytes: Uint8Array, fPort: number): DecodeResult {
    const entry = this.entryFor(key, script);
    if (typeof entry === 'string') return failed(`codec: ${entry}`);
    const run = this.decodeIn(entry.loaded, bytes, fPort);
    // After an interrupt or out-of-memory the codec's state is unknown: it is dropped; after one
    // exhausted the module's memory, every codec of the thread is (callOrDrop).
    if (run.callFailed) {
      this.loaded.delete(entry.cacheKey);
      this.dispose(entry.loaded);
      if (run.result.error === `codec: ${OUT_OF_MEMORY}`) this.close();
    }
    return run.result;
  }

  /**
   * Decodes in a loaded codec: the result as an uplink stores it, and the codec's output and
   * normalized payload as it returned them (null when it failed).
   */
  private decodeIn(loaded: Loaded, bytes: Uint8Array, fPort: number): DecodeRun {
    const none = (result: DecodeResult, callFailed = false) => ({ result, output: null, normalized: null, callFailed });
    // Serialised inside QuickJS; an oversized result comes back as its length only, so it never
    // costs the host a copy. What does come back is checked before it is parsed. A codec with TTN's
    // normalizeUplink({data}) has it run on a copy of its data, as The Things Stack does; its
    // answer comes back beside the output (as null when it has none, throws or would pass the cap)
    // for the measurements only.
    const input = JSON.stringify({ bytes: Array.from(bytes), fPort });
    const call =
      `(function(){var o=decodeUplink(${input});var s=JSON.stringify(o);` +
      `if(typeof s!=='string')return s;if(s.length>${DECODED_MAX_BYTES})return s.length;var n='null';` +
      `if(typeof normalizeUplink==='function'&&o&&typeof o.data==='object'&&o.data!==null&&!(Array.isArray(o.errors)&&o.errors.length>0)){` +
      `try{var t=JSON.stringify(normalizeUplink({data:JSON.parse(s).data}));if(typeof t==='string'&&s.length+t.length<${DECODED_MAX_BYTES})n=t}catch(e){}}` +
      `return '['+s+','+n+']'})()`;
    const result = this.call(loaded, call);
    if (!result.ok) return none(failed(`codec: ${result.error}`), true);
    if (typeof result.value === 'number') return none(failed(`codec: the decoded output exceeds ${DECODED_MAX_BYTES / 1024} KiB`));
    if (typeof result.value !== 'string') return { ...none(fromCodecOutput(undefined)), output: result.value ?? null };
    const problem = decodedTextProblem(result.value);
    if (problem) return none(failed(`codec: ${problem}`));
    let output: unknown;
    let normalized: unknown;
    try {
      [output, normalized] = JSON.parse(result.value) as [unknown, unknown];
    } catch {
      output = undefined;
    }
    // fromCodecOutput takes the output's data object as payload_decoded: the output is read from a copy.
    const shown = output === undefined ? null : (JSON.parse(JSON.stringify(output)) as unknown);
    const decoded = fromCodecOutput(output, normalized);
    // The codec's own error texts are cut at 500 characters, which can split a surrogate pair.
    return {
      result: decoded.error === null ? decoded : { ...decoded, error: storable(decoded.error) },
      output: shown,
      normalized: normalized ?? null,
      callFailed: false,
    };
  }

  /**
   * Encodes a downlink with the codec's encodeDownlink({data}) (`{bytes, fPort, warnings, errors}`
   * in the codec convention), `data` passed as given; a string says why it could not.
   */
  encode(key: string, script: string, data: Record<string, unknown>): { bytes: Uint8Array; fPort: number | null } | string {
    const entry = this.entryFor(key, script);
    if (typeof entry === 'string') return `codec: ${entry}`;
    const kind = this.call(entry.loaded, 'typeof encodeDownlink');
    if (!kind.ok || kind.value !== 'function') return 'the codec has no encodeDownlink function';
    const result = this.callOrDrop(entry, `JSON.stringify(encodeDownlink(${JSON.stringify({ data })}))`);
    if (!result.ok) return `codec: ${result.error}`;
    let out: { bytes?: unknown; fPort?: unknown; port?: unknown; errors?: unknown } | null = null;
    try {
      out = typeof result.value === 'string' ? JSON.parse(result.value) : null;
    } catch {
      out = null;
    }
    if (!out || typeof out !== 'object') return 'the codec returned no object';
    if (Array.isArray(out.errors) && out.errors.length > 0)
      return out.errors
        .map((e) => textOf(e))
        .join('; ')
        .slice(0, 300);
    if (!Array.isArray(out.bytes) || !out.bytes.every((b) => Number.isInteger(b) && b >= 0 && b <= 255)) return 'the codec returned no byte array';
    return { bytes: Uint8Array.from(out.bytes as number[]), fPort: out.fPort !== undefined ? encodedPort(out.fPort, false) : encodedPort(out.port, true) };
  }

  close(): void {
    for (const entry of this.loaded.values()) this.dispose(entry);
    this.loaded.clear();
  }

  /** The loaded codec for this key and script, loading and caching it when needed. */
  private entryFor(key: string, script: string): { cacheKey: string; loaded: Loaded } | string {
    const cacheKey = `${key}:${createHash('sha256').update(script).digest('hex')}`;
    const cached = this.loaded.get(cacheKey);
    if (cached) return { cacheKey, loaded: cached };
    const loaded = this.load(script);
    if (typeof loaded === 'string') return loaded;
    this.remember(cacheKey, loaded);
    return { cacheKey, loaded };
  }

  /** Calls into the codec; after an interrupt or out-of-memory its state is unknown, so it is dropped. */
  private callOrDrop(entry: { cacheKey: string; loaded: Loaded }, code: string) {
    const result = this.call(entry.loaded, code);
    if (!result.ok) {
      this.loaded.delete(entry.cacheKey);
      this.dispose(entry.loaded);
      // Every codec of this thread shares the module's memory: after one exhausted it, the others
      // are dropped too (and loaded again when next used) so that what they hold is freed.
      if (result.error === OUT_OF_MEMORY) this.close();
    }
    return result;
  }

  private load(script: string): Loaded | string {
    if (!this.quickjs) {
      this.broken();
      return 'the codec sandbox is restarting; try again shortly';
    }
    const runtime = this.quickjs.newRuntime();
    runtime.setMemoryLimit(CODEC_LIMITS.memoryBytes);
    runtime.setMaxStackSize(CODEC_LIMITS.stackBytes);
    const context = runtime.newContext();
    const entry = { runtime, context };
    const loadMs = loadDeadlineMs(script);
    const deadline = Date.now() + loadMs;
    runtime.setInterruptHandler(shouldInterruptAfterDeadline(deadline));
    let r: ReturnType<QuickJSContext['evalCode']>;
    this.watch(deadline);
    try {
      r = context.evalCode(script, 'codec.js');
    } catch (error) {
      this.broken();
      return `the sandbox failed: ${(error as Error).message}`;
    } finally {
      this.watch(0);
    }
    if (r.error) {
      const message = describe(context.dump(r.error), `loading exceeded its time limit of ${loadMs} ms`);
      r.error.dispose();
      this.dispose(entry);
      return message;
    }
    r.value.dispose();
    return entry;
  }

  private call(entry: Loaded, code: string, deadlineMs: number = CODEC_LIMITS.callMs): CallResult {
    const deadline = Date.now() + deadlineMs;
    entry.runtime.setInterruptHandler(shouldInterruptAfterDeadline(deadline));
    let r: ReturnType<QuickJSContext['evalCode']>;
    this.watch(deadline);
    try {
      r = entry.context.evalCode(code, 'call.js');
    } catch (error) {
      // The host, not QuickJS, failed: nothing of this module is trustworthy any more.
      this.broken();
      return { ok: false, error: `the sandbox failed: ${(error as Error).message}` };
    } finally {
      this.watch(0);
    }
    if (r.error) {
      const error = describe(entry.context.dump(r.error), `exceeded its time limit of ${deadlineMs} ms`);
      r.error.dispose();
      return { ok: false, error };
    }
    const value = entry.context.dump(r.value) as unknown;
    r.value.dispose();
    return { ok: true, value };
  }

  private remember(key: string, entry: Loaded): void {
    if (this.loaded.size >= CODEC_LIMITS.cached) {
      const [oldestKey, oldest] = this.loaded.entries().next().value as [string, Loaded];
      this.loaded.delete(oldestKey);
      this.dispose(oldest);
    }
    this.loaded.set(key, entry);
  }

  private dispose(entry: Loaded): void {
    try {
      entry.context.dispose();
      entry.runtime.dispose();
    } catch {
      // A runtime QuickJS cannot tear down cleanly aborts the WebAssembly module: replace it.
      this.broken();
    }
  }
}
