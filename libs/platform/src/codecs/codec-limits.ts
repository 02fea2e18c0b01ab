import type { CodecExampleResult, DecodeResult } from '@dts/domain';
import { newQuickJSWASMModuleFromVariant, newVariant, type QuickJSWASMModule, RELEASE_SYNC } from 'quickjs-emscripten';

/**
 * Limits of one codec: what a decoder for a 242-byte payload could ever need, and far less than harm.
 * `memoryBytes` is QuickJS's own limit per runtime, which this build enforces only per allocation
 * (it cannot read block sizes, so it counts 8 bytes a block: an array grown in steps passes it);
 * `moduleMemoryBytes` is the hard bound, the WebAssembly memory of a thread's QuickJS module, which
 * cannot grow past it. `watchdogGraceMs`: how long past its deadline a call may go on before its
 * thread is terminated — QuickJS polls its interrupt handler only every 10,000 bytecode steps, so a
 * codec spending its time in native work (`new Array(1e6).fill(0)` in a loop) is never interrupted
 * from inside.
 * Scripts up to 512 KiB: real vendor codecs reach 100 KB (Laird RS1xx) and 321 KB (Abeeway).
 * Loading one is parsing it, which grows with its size: 200 ms plus 1 ms per KiB (a 512 KiB script
 * has 712 ms). Measured on this 2-core machine (docs/benchmarks.md, figure 11): a 321 KB script of
 * real vendor code is checked in 35 ms on a fresh codec thread and 24 ms on a warm one (1.3 KB: 2
 * and 0.8 ms); in a process whose QuickJS WebAssembly is not yet optimised, a 508 KB one took
 * 130–180 ms. Its compiled form holds about 0.3 MiB.
 */
export const CODEC_LIMITS = {
  memoryBytes: 16 * 1024 * 1024,
  moduleMemoryBytes: 128 * 1024 * 1024,
  stackBytes: 128 * 1024,
  callMs: 50,
  loadMs: 200,
  loadMsPerKiB: 1,
  watchdogGraceMs: 250,
  maxScriptBytes: 512 * 1024,
  cached: 64,
} as const;

/** How long loading this script may take. */
export const loadDeadlineMs = (script: string): number => CODEC_LIMITS.loadMs + Math.ceil((Buffer.byteLength(script) / 1024) * CODEC_LIMITS.loadMsPerKiB);
/** The longest any script may take to load. */
export const MAX_LOAD_MS = CODEC_LIMITS.loadMs + (CODEC_LIMITS.maxScriptBytes / 1024) * CODEC_LIMITS.loadMsPerKiB;

/** What a draft script did (POST /user/codec/try, a codec's examples): nothing of it is kept. */
export interface CodecTrial {
  problem: string | null;
  decoded: { output: unknown; normalized: unknown; result: DecodeResult } | null;
  /** One per example, null for those the budget left unrun. */
  examples: (CodecExampleResult | null)[];
  usedMs: number;
}
const WASM_PAGE_BYTES = 64 * 1024;

/**
 * A QuickJS module whose WebAssembly memory cannot grow past CODEC_LIMITS.moduleMemoryBytes, from
 * `compiled` when given (threads replacing a terminated one skip compiling it again).
 */
export function newCodecModule(compiled?: WebAssembly.Module): Promise<QuickJSWASMModule> {
  const memory = new WebAssembly.Memory({ initial: 256, maximum: CODEC_LIMITS.moduleMemoryBytes / WASM_PAGE_BYTES });
  return newQuickJSWASMModuleFromVariant(newVariant(RELEASE_SYNC, compiled ? { wasmModule: compiled, wasmMemory: memory } : { wasmMemory: memory }));
}
