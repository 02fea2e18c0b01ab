import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import { LOOP_STALL_MS, type LoopDeadline, loopDeadline, loopStall } from './loop-deadline';

/** Holds the event loop for `ms`, as a long garbage collection or a starved machine does. */
function standStill(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // nothing: the loop stands still
  }
}

describe('loopStall', () => {
  it('is 0 for a timer on time or a little late, and the lateness past LOOP_STALL_MS', () => {
    expect(loopStall(1_000, 1_000)).toBe(0);
    expect(loopStall(1_000, 1_000 + LOOP_STALL_MS)).toBe(0);
    expect(loopStall(1_000, 1_000 + LOOP_STALL_MS + 1)).toBe(LOOP_STALL_MS + 1);
  });
});

describe('loopDeadline', () => {
  /** A thread that answers at once when asked: its answer arrives while this loop may stand still. */
  let answerer: Worker;
  beforeAll(async () => {
    answerer = new Worker("require('node:worker_threads').parentPort.on('message', (m) => require('node:worker_threads').parentPort.postMessage(m))", {
      eval: true,
    });
    await once(answerer, 'online');
  });
  afterAll(() => answerer.terminate());

  /** Which came first: the answer (asked for now) or the deadline; the loop stands still for `stillMs` first. */
  async function race(deadlineMs: number, stillMs: number): Promise<'answer' | 'expired'> {
    let first: 'answer' | 'expired' | null = null;
    let deadline: LoopDeadline | undefined;
    const settled = new Promise<void>((resolve) => {
      deadline = loopDeadline(deadlineMs, () => {
        first ??= 'expired';
        resolve();
      });
      answerer.once('message', () => {
        first ??= 'answer';
        deadline?.clear();
        resolve();
      });
    });
    // From a setImmediate callback: the loop's next phase after it is the timers', as it is after a
    // stall in most of what a server does. Started from elsewhere, the answer may be read first anyway.
    setImmediate(() => {
      answerer.postMessage('ask');
      standStill(stillMs);
    });
    await settled;
    return first!;
  }

  it('lets an answer that arrived while the loop stood past the deadline be read first', async () => {
    // A plain setTimeout fires first here: Node runs due timers before it reads what arrived.
    expect(await race(100, 600)).toBe('answer');
  });

  describe('on a loop that turns (fake timers: the clock and performance.now() move together)', () => {
    beforeEach(() => jest.useFakeTimers());
    afterEach(() => jest.useRealTimers());

    it('expires when its time has passed, not before', () => {
      let expired = false;
      loopDeadline(100, () => (expired = true));
      jest.advanceTimersByTime(99);
      expect(expired).toBe(false);
      jest.advanceTimersByTime(1);
      expect(expired).toBe(true);
    });

    it('is stopped by clear', () => {
      let expired = false;
      loopDeadline(100, () => (expired = true)).clear();
      jest.advanceTimersByTime(1_000);
      expect(expired).toBe(false);
    });
  });
});
