import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { type CodecExample, type DecodeResult, NO_MEASUREMENTS } from '@dts/domain';
import { readFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { threadEntry } from '../threads/thread-entry';
import { loopDeadline, type LoopDeadline } from '../time/loop-deadline';
import { CODEC_LIMITS, type CodecTrial, loadDeadlineMs, MAX_LOAD_MS } from './codec-limits';
import { CODEC_THREAD_MARK, type CodecRequest, type CodecResponse, type CodecThreadData, type EncodeOutcome } from './codec-worker';

/**
 * Past its whole request's bound (budget and deadlines), a thread gets this long before it is
 * replaced: a backstop for a thread stuck outside a call. A call past its own deadline is caught
 * far sooner by the watchdog (CODEC_LIMITS.watchdogGraceMs).
 */
const HUNG_GRACE_MS = 5_000;

/** How often the watchdog reads the busy threads' call deadlines. */
const WATCHDOG_INTERVAL_MS = 25;

/** QuickJS's WebAssembly, compiled once per process and handed to every thread (a replacement too). */
let compiledQuickJs: Promise<WebAssembly.Module> | null = null;
const quickJsModule = () => (compiledQuickJs ??= WebAssembly.compile(readFileSync(require.resolve('@jitl/quickjs-wasmfile-release-sync/wasm'))));

type Request = CodecRequest extends infer R ? (R extends CodecRequest ? Omit<R, 'id'> : never) : never;

/** A thread's answer, or why there is none (the thread hung, died or the service is stopping). */
type Outcome = CodecResponse | { id: number; op: 'lost'; error: string };

interface Pending {
  request: CodecRequest;
  resolve: (outcome: Outcome) => void;
}

interface Thread {
  worker: Worker;
  /** The deadline (epoch ms) of the call the thread is in, 0 between calls: written by the thread. */
  deadline: BigInt64Array;
  ready: boolean;
  current: Pending | null;
  /** Past it the thread is taken as hung: a loop deadline, so that a stall of this process is not blamed on the thread. */
  timer: LoopDeadline | null;
}

/** The failed result of work a thread could not finish. */
const failure = (error: string): DecodeResult => ({ decoded: {}, valid: false, error, measurements: { ...NO_MEASUREMENTS } });

/**
 * Vendor codecs run here, on worker threads, never on the event loop: a codec that loops or
 * allocates costs its own thread's time, within its deadline and the caller's CPU budget, while
 * the process goes on answering. Up to `CODEC_WORKERS` threads (about 17 MiB each), each with its
 * own QuickJS module and codec cache, started when work first waits for one: a service whose
 * accounts run no codec of their own (built-in families and Cayenne LPP decode on the event loop)
 * never pays for them. Each thread warms its sandbox before it takes work, so that what a fresh
 * thread costs never counts against a script's limits — the first trial after a start once failed
 * its load limit with a 4-line script. The first codec call after a start waits for that (about
 * 0.1 s of wall time on a quiet 2-core machine) in the queue, which no limit counts. Requests wait in one
 * queue and go to whichever thread is free. A thread that does not answer within its work's bound
 * plus HUNG_GRACE_MS is terminated and replaced; its request fails.
 */
@Injectable()
export class CodecPool implements OnApplicationShutdown {
  private readonly logger = new Logger(CodecPool.name);
  private readonly threads: Thread[] = [];
  private readonly queue: Pending[] = [];
  private nextId = 1;
  private closed = false;
  private spawning = 0;
  private watchdog: NodeJS.Timeout | null = null;
  /** Threads replaced after hanging or dying: exposed for tests and metrics. */
  replaced = 0;
  /** Added to a request's own bound before its thread counts as hung (a test shortens it). */
  hungGraceMs = HUNG_GRACE_MS;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  /** Decodes items with one codec, stopping once `budgetMs` of codec time is spent (null for the rest). */
  async decode(
    key: string,
    script: string,
    items: { payload: Uint8Array; port: number }[],
    budgetMs: number,
  ): Promise<{ results: (DecodeResult | null)[]; usedMs: number }> {
    const outcome = await this.run({ op: 'decode', key, script, items, budgetMs });
    if (outcome.op === 'decode') return { results: outcome.results, usedMs: outcome.usedMs };
    // The thread was lost: every item failed, and the whole bound counts as spent.
    const error = outcome.op === 'lost' ? outcome.error : 'unexpected answer';
    return { results: items.map(() => failure(`codec: ${error}`)), usedMs: budgetMs };
  }

  async encode(key: string, script: string, data: Record<string, unknown>): Promise<EncodeOutcome> {
    const outcome = await this.run({ op: 'encode', key, script, data });
    if (outcome.op === 'encode') return outcome.result;
    return `codec: ${outcome.op === 'lost' ? outcome.error : 'unexpected answer'}`;
  }

  /** Why the script cannot serve as a codec, or null. */
  async check(script: string): Promise<string | null> {
    const outcome = await this.run({ op: 'check', script });
    if (outcome.op === 'check') return outcome.result;
    return outcome.op === 'lost' ? outcome.error : 'unexpected answer';
  }

  /**
   * Runs a draft script on a thread (POST /user/codec/try, a codec's examples): the payload's
   * decode and the examples, within `budgetMs` of codec time, loading included.
   */
  async trial(script: string, payload: { bytes: Uint8Array; fPort: number } | null, examples: CodecExample[], budgetMs: number): Promise<CodecTrial> {
    const outcome = await this.run({ op: 'try', script, payload, examples, budgetMs });
    if (outcome.op === 'try') return outcome.result;
    // The thread was lost: nothing ran, and the whole bound counts as spent.
    const problem = outcome.op === 'lost' ? outcome.error : 'unexpected answer';
    return { problem, decoded: null, examples: examples.map(() => null), usedMs: budgetMs };
  }

  /** Threads running and requests waiting, for health and tests. */
  stats(): { threads: number; busy: number; queued: number; replaced: number } {
    return { threads: this.threads.length, busy: this.threads.filter((t) => t.current).length, queued: this.queue.length, replaced: this.replaced };
  }

  async onApplicationShutdown(): Promise<void> {
    this.closed = true;
    if (this.watchdog) clearInterval(this.watchdog);
    for (const pending of this.queue.splice(0)) pending.resolve(this.lost(pending.request, 'the service is stopping'));
    await Promise.all(this.threads.splice(0).map((t) => this.stop(t, 'the service is stopping')));
  }

  private run(request: Request): Promise<Outcome> {
    if (this.closed) return Promise.resolve({ id: 0, op: 'lost', error: 'the service is stopping' });
    return new Promise((resolvePending) => {
      this.queue.push({ request: { ...request, id: this.nextId++ } as CodecRequest, resolve: resolvePending });
      this.dispatch();
    });
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      const thread = this.threads.find((t) => t.ready && !t.current);
      if (!thread) {
        if (this.threads.length + this.spawning < this.config.codecs.workers) void this.startThread();
        return;
      }
      const pending = this.queue.shift()!;
      thread.current = pending;
      thread.timer = loopDeadline(boundOf(pending.request) + this.hungGraceMs, () => void this.hung(thread));
      thread.worker.postMessage(pending.request);
    }
  }

  private async startThread(): Promise<void> {
    this.spawning++;
    let compiled: WebAssembly.Module;
    try {
      compiled = await quickJsModule();
    } catch (error) {
      // Nothing can run a codec: what waits fails now rather than never.
      compiledQuickJs = null;
      this.logger.error(`the codec sandbox could not be compiled: ${(error as Error).message}`);
      for (const pending of this.queue.splice(0)) pending.resolve(this.lost(pending.request, 'the codec sandbox could not start'));
      return;
    } finally {
      this.spawning--;
    }
    if (this.closed) return;
    const watch = new SharedArrayBuffer(BigInt64Array.BYTES_PER_ELEMENT);
    const workerData: CodecThreadData = { mark: CODEC_THREAD_MARK, compiled, watch };
    const worker = new Worker(threadEntry(__filename, __dirname, 'codec-worker.js'), { workerData, resourceLimits: { maxOldGenerationSizeMb: 256 } });
    const thread: Thread = {
      worker,
      deadline: new BigInt64Array(watch),
      ready: false,
      current: null,
      timer: null,
    };
    this.threads.push(thread);
    worker.unref();
    worker.on('message', (message: CodecResponse | 'ready') => {
      if (message === 'ready') {
        thread.ready = true;
        this.dispatch();
        return;
      }
      const pending = thread.current;
      if (!pending || pending.request.id !== message.id) return;
      thread.timer?.clear();
      thread.current = null;
      thread.timer = null;
      pending.resolve(message);
      this.dispatch();
    });
    worker.on('error', (error) => this.logger.error(`codec thread failed: ${error.message}`));
    worker.on('exit', () => {
      this.gone(thread, 'the codec thread stopped');
    });
    this.watchdog ??= setInterval(() => this.watch(), WATCHDOG_INTERVAL_MS).unref();
  }

  /**
   * Terminates every thread whose call has run past its deadline by more than the grace: QuickJS
   * stops a looping codec itself, but not one spending its time in native work between two polls
   * of its interrupt handler. Termination stops WebAssembly too.
   */
  private watch(): void {
    const now = Date.now();
    for (const thread of [...this.threads]) {
      const deadline = Number(Atomics.load(thread.deadline, 0));
      if (thread.current && deadline > 0 && now > deadline + CODEC_LIMITS.watchdogGraceMs) {
        this.logger.warn(`a codec ran ${now - deadline} ms past its deadline without stopping: its thread was replaced`);
        void this.stop(thread, 'the codec did not stop at its time limit; its thread was replaced');
      }
    }
  }

  /** A thread past its bound: its request fails, the thread is replaced. */
  private async hung(thread: Thread): Promise<void> {
    this.logger.warn(`a codec thread did not answer within its bound: replaced`);
    await this.stop(thread, 'the codec did not finish in time; its thread was replaced');
  }

  private async stop(thread: Thread, reason: string): Promise<void> {
    this.gone(thread, reason);
    await thread.worker.terminate().catch(() => undefined);
  }

  private gone(thread: Thread, reason: string): void {
    const index = this.threads.indexOf(thread);
    if (index === -1) return;
    this.threads.splice(index, 1);
    thread.timer?.clear();
    const pending = thread.current;
    thread.current = null;
    if (pending) pending.resolve(this.lost(pending.request, reason));
    if (!this.closed) {
      this.replaced++;
      this.dispatch();
    }
  }

  private lost(request: CodecRequest, error: string): Outcome {
    return { id: request.id, op: 'lost', error };
  }
}

/** How long a request may take at most by its own limits (budget, deadlines). */
function boundOf(request: CodecRequest): number {
  switch (request.op) {
    case 'decode':
      return request.budgetMs + MAX_LOAD_MS + CODEC_LIMITS.callMs;
    case 'encode':
      return MAX_LOAD_MS + 2 * CODEC_LIMITS.callMs;
    case 'check':
      return 2 * loadDeadlineMs(request.script);
    case 'try':
      // The budget is checked between calls: one call (or a reload after a failed one) may pass it.
      return request.budgetMs + 2 * loadDeadlineMs(request.script) + CODEC_LIMITS.callMs;
  }
}
