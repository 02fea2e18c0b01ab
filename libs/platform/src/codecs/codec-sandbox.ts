import { fromCodecOutput, type DecodeResult, NO_MEASUREMENTS } from '@dts/domain';
import { createHash } from 'node:crypto';
import { type QuickJSContext, type QuickJSRuntime, type QuickJSWASMModule, shouldInterruptAfterDeadline } from 'quickjs-emscripten';

/** Limits of one codec: what a decoder for a 242-byte payload could ever need, and far less than harm. */
export const CODEC_LIMITS = { memoryBytes: 16 * 1024 * 1024, stackBytes: 128 * 1024, callMs: 50, loadMs: 200, maxScriptBytes: 64 * 1024, cached: 64 } as const;

interface Loaded {
  runtime: QuickJSRuntime;
  context: QuickJSContext;
}

const failed = (error: string): DecodeResult => ({ decoded: {}, valid: false, error, measurements: { ...NO_MEASUREMENTS } });

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

  /**
   * `fresh` makes a new QuickJS module: should the WebAssembly module itself ever fail (an abort
   * while tearing a runtime down), it is dropped and replaced rather than reused.
   */
  constructor(
    quickjs: QuickJSWASMModule,
    private readonly fresh: () => Promise<QuickJSWASMModule>,
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
    const kind = this.call(probe, 'typeof decodeUplink');
    this.dispose(probe);
    return kind.ok && kind.value === 'function' ? null : 'the script must define a function decodeUplink(input)';
  }

  decode(key: string, script: string, bytes: Uint8Array, fPort: number): DecodeResult {
    const entry = this.entryFor(key, script);
    if (typeof entry === 'string') return failed(`codec: ${entry}`);
    const result = this.callOrDrop(entry, `JSON.stringify(decodeUplink(${JSON.stringify({ bytes: Array.from(bytes), fPort })}))`);
    if (!result.ok) return failed(`codec: ${result.error}`);
    let output: unknown;
    try {
      output = typeof result.value === 'string' ? JSON.parse(result.value) : undefined;
    } catch {
      output = undefined;
    }
    return fromCodecOutput(output);
  }

  /**
   * Encodes a downlink with the codec's encodeDownlink({data}) (`{bytes, fPort, warnings, errors}`
   * in the codec convention); a string says why it could not.
   */
  encode(key: string, script: string, data: Record<string, unknown>): { bytes: Uint8Array; fPort: number | null } | string {
    const entry = this.entryFor(key, script);
    if (typeof entry === 'string') return `codec: ${entry}`;
    const kind = this.call(entry.loaded, 'typeof encodeDownlink');
    if (!kind.ok || kind.value !== 'function') return 'the codec has no encodeDownlink function';
    const result = this.callOrDrop(entry, `JSON.stringify(encodeDownlink(${JSON.stringify({ data })}))`);
    if (!result.ok) return `codec: ${result.error}`;
    let out: { bytes?: unknown; fPort?: unknown; errors?: unknown } | null = null;
    try {
      out = typeof result.value === 'string' ? JSON.parse(result.value) : null;
    } catch {
      out = null;
    }
    if (!out || typeof out !== 'object') return 'the codec returned no object';
    if (Array.isArray(out.errors) && out.errors.length > 0) return out.errors.map(String).join('; ').slice(0, 300);
    if (!Array.isArray(out.bytes) || !out.bytes.every((b) => Number.isInteger(b) && b >= 0 && b <= 255)) return 'the codec returned no byte array';
    const fPort = typeof out.fPort === 'number' && Number.isInteger(out.fPort) && out.fPort >= 1 && out.fPort <= 223 ? out.fPort : null;
    return { bytes: Uint8Array.from(out.bytes as number[]), fPort };
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
    runtime.setInterruptHandler(shouldInterruptAfterDeadline(Date.now() + CODEC_LIMITS.loadMs));
    let r: ReturnType<QuickJSContext['evalCode']>;
    try {
      r = context.evalCode(script, 'codec.js');
    } catch (error) {
      this.broken();
      return `the sandbox failed: ${(error as Error).message}`;
    }
    if (r.error) {
      const message = describe(context.dump(r.error));
      r.error.dispose();
      this.dispose(entry);
      return message;
    }
    r.value.dispose();
    return entry;
  }

  private call(entry: Loaded, code: string): { ok: true; value: unknown } | { ok: false; error: string } {
    entry.runtime.setInterruptHandler(shouldInterruptAfterDeadline(Date.now() + CODEC_LIMITS.callMs));
    let r: ReturnType<QuickJSContext['evalCode']>;
    try {
      r = entry.context.evalCode(code, 'call.js');
    } catch (error) {
      // The host, not QuickJS, failed: nothing of this module is trustworthy any more.
      this.broken();
      return { ok: false, error: `the sandbox failed: ${(error as Error).message}` };
    }
    if (r.error) {
      const error = describe(entry.context.dump(r.error));
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

function describe(dumped: unknown): string {
  if (dumped && typeof dumped === 'object' && 'message' in dumped) {
    const { name, message } = dumped as { name?: string; message?: string };
    if (message === 'interrupted') return `exceeded its time limit of ${CODEC_LIMITS.callMs} ms`;
    if (message === 'out of memory') return `exceeded its memory limit of ${CODEC_LIMITS.memoryBytes / 1024 / 1024} MiB`;
    return `${name ?? 'Error'}: ${String(message).slice(0, 300)}`;
  }
  return String(dumped).slice(0, 300);
}
