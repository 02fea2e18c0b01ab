import type { AttemptResult } from '@dts/persistence';
import { RECORD_EVERY_MS, SuccessRecorder } from './success-recorder';

const ok = (id: number): AttemptResult => ({ id: String(id), status: 200, latencyMs: 1, error: null });

/** A repository whose writes end when the test says so; each call's ids are kept. */
function repository() {
  const writes: string[][] = [];
  const pending: { resolve: () => void; reject: (e: Error) => void }[] = [];
  const delivered = jest.fn(
    (results: AttemptResult[]) =>
      new Promise<void>((resolve, reject) => {
        writes.push(results.map((r) => r.id));
        pending.push({ resolve, reject });
      }),
  );
  return { writes, delivered, end: () => pending.shift()!.resolve(), fail: (e: Error) => pending.shift()!.reject(e) };
}

describe('SuccessRecorder', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('writes the first success at once, then gathers what comes for RECORD_EVERY_MS before the next write', async () => {
    const repo = repository();
    const recorded = jest.fn(async () => undefined);
    const recorder = new SuccessRecorder(repo, recorded);
    recorder.add(ok(1));
    expect(repo.writes).toEqual([['1']]);
    recorder.add(ok(2));
    repo.end();
    await jest.advanceTimersByTimeAsync(0);
    expect(recorded).toHaveBeenCalledWith(1);
    recorder.add(ok(3));
    await jest.advanceTimersByTimeAsync(RECORD_EVERY_MS - 5);
    // Still gathering: one write so far, however many successes wait.
    expect(repo.writes).toEqual([['1']]);
    await jest.advanceTimersByTimeAsync(5);
    expect(repo.writes).toEqual([['1'], ['2', '3']]);
    repo.end();
    await jest.advanceTimersByTimeAsync(RECORD_EVERY_MS);
    expect(recorded).toHaveBeenLastCalledWith(2);
    // Nothing waits: no empty write, and the next success is written at once.
    recorder.add(ok(4));
    expect(repo.writes).toEqual([['1'], ['2', '3'], ['4']]);
  });

  it('drain writes what waits at once, without waiting out the interval', async () => {
    const repo = repository();
    const recorder = new SuccessRecorder(repo, async () => undefined);
    recorder.add(ok(1));
    repo.end();
    await jest.advanceTimersByTimeAsync(0);
    recorder.add(ok(2));
    let drained = false;
    const drain = recorder.drain().then(() => (drained = true));
    await jest.advanceTimersByTimeAsync(0);
    expect(repo.writes).toEqual([['1'], ['2']]);
    expect(drained).toBe(false);
    repo.end();
    await drain;
    expect(drained).toBe(true);
  });

  it('a failed write is thrown by drain, and nothing after it is written (those deliveries are sent again)', async () => {
    const repo = repository();
    const recorder = new SuccessRecorder(repo, async () => undefined);
    recorder.add(ok(1));
    recorder.add(ok(2));
    repo.fail(new Error('connection lost'));
    await jest.advanceTimersByTimeAsync(0);
    recorder.add(ok(3));
    await jest.advanceTimersByTimeAsync(RECORD_EVERY_MS * 2);
    await expect(recorder.drain()).rejects.toThrow('connection lost');
    expect(repo.writes).toEqual([['1']]);
  });
});
