import type { CodecExample, DecodeResult } from '@dts/domain';
import { setPriority } from 'node:os';
import { performance } from 'node:perf_hooks';
import { parentPort, workerData } from 'node:worker_threads';
import { type CodecTrial, newCodecModule } from './codec-limits';
import { CodecSandbox } from './codec-sandbox';

/** What the event loop asks a codec thread (one at a time per thread). */
export type CodecRequest =
  | { id: number; op: 'decode'; key: string; script: string; items: { payload: Uint8Array; port: number }[]; budgetMs: number }
  | { id: number; op: 'encode'; key: string; script: string; data: Record<string, unknown> }
  | { id: number; op: 'check'; script: string }
  | { id: number; op: 'try'; script: string; payload: { bytes: Uint8Array; fPort: number } | null; examples: CodecExample[]; budgetMs: number };

export type EncodeOutcome = { bytes: Uint8Array; fPort: number | null } | string;

/** A decode answers one result per item, or null for the items the budget left undecoded. */
export type CodecResponse =
  | { id: number; op: 'decode'; results: (DecodeResult | null)[]; usedMs: number }
  | { id: number; op: 'encode'; result: EncodeOutcome }
  | { id: number; op: 'check'; result: string | null }
  | { id: number; op: 'try'; result: CodecTrial };

/** Runs one request to completion: the thread does nothing else meanwhile. */
export function handleCodecRequest(sandbox: CodecSandbox, request: CodecRequest): CodecResponse {
  switch (request.op) {
    case 'decode': {
      const results: (DecodeResult | null)[] = [];
      let usedMs = 0;
      for (const item of request.items) {
        // Checked before each uplink: one uplink may pass the budget by at most its own deadline.
        if (usedMs >= request.budgetMs) {
          results.push(null);
          continue;
        }
        const started = performance.now();
        results.push(sandbox.decode(request.key, request.script, item.payload, item.port));
        usedMs += performance.now() - started;
      }
      return { id: request.id, op: 'decode', results, usedMs };
    }
    case 'encode':
      return { id: request.id, op: 'encode', result: sandbox.encode(request.key, request.script, request.data) };
    case 'check':
      return { id: request.id, op: 'check', result: sandbox.check(request.script) };
    case 'try':
      return { id: request.id, op: 'try', result: sandbox.trial(request.script, request.payload, request.examples, request.budgetMs) };
  }
}

/** Nice value of codec threads: a weight about a third of the event loop's under contention. */
const CODEC_THREAD_NICE = 5;

/** Marks the threads CodecPool starts, so that importing this file anywhere else does nothing. */
export const CODEC_THREAD_MARK = 'dts-codec-thread';

/**
 * What a codec thread starts with: the QuickJS WebAssembly module compiled once by the pool, and
 * the shared word in which the thread shows the deadline of the call it is in (epoch ms, 0 between
 * calls) for the pool's watchdog.
 */
export interface CodecThreadData {
  mark: typeof CODEC_THREAD_MARK;
  compiled: WebAssembly.Module;
  watch: SharedArrayBuffer;
}

const isThreadData = (data: unknown): data is CodecThreadData =>
  typeof data === 'object' && data !== null && (data as { mark?: unknown }).mark === CODEC_THREAD_MARK;

// The thread's entry: one QuickJS module per thread, loaded codecs cached per thread.
if (parentPort && isThreadData(workerData)) {
  const port = parentPort;
  const { compiled, watch } = workerData;
  const deadline = new BigInt64Array(watch);
  // A lower CPU priority for this thread (on Linux a nice value is per thread): when codecs and the
  // event loop want the same core, the event loop gets most of it, and health and other accounts'
  // requests are answered while a hostile codec spins. Not the lowest: a codec's deadline is wall
  // time, and a thread starved by every other process on a busy machine would miss it while
  // doing nothing wrong. Best effort: some systems refuse it.
  try {
    setPriority(CODEC_THREAD_NICE);
  } catch {
    // left at the process's priority
  }
  void newCodecModule(compiled).then((module) => {
    const sandbox = new CodecSandbox(
      module,
      () => newCodecModule(compiled),
      (at) => Atomics.store(deadline, 0, BigInt(at)),
    );
    // Before the first request: what a fresh module costs is the thread's start-up, never a script's.
    sandbox.warmUp();
    port.on('message', (request: CodecRequest) => port.postMessage(handleCodecRequest(sandbox, request)));
    port.postMessage('ready');
  });
}
