import { eventually, pause } from './eventually';

describe('eventually', () => {
  it('returns what the check returned once it passes', async () => {
    let calls = 0;
    const value = await eventually(
      () => {
        calls += 1;
        return calls < 3 ? false : { calls };
      },
      { what: 'the third call', intervalMs: 1 },
    );
    expect(value).toEqual({ calls: 3 });
  });

  it('retries a check that throws (an expect inside it) until it passes', async () => {
    let calls = 0;
    const value = await eventually(
      async () => {
        calls += 1;
        expect(calls).toBeGreaterThanOrEqual(4);
        return 'done';
      },
      { what: 'the fourth call', intervalMs: 1 },
    );
    expect(value).toBe('done');
    expect(calls).toBe(4);
  });

  it('passes on undefined: a check that only asserts needs no return value', async () => {
    await expect(eventually(() => undefined, { what: 'nothing', timeoutMs: 50 })).resolves.toBeUndefined();
  });

  it('times out naming what it waited for and the last failure it saw', async () => {
    let calls = 0;
    const started = Date.now();
    const error = await eventually(
      () => {
        calls += 1;
        throw new Error(`still ${calls}`);
      },
      { what: 'a row that never comes', timeoutMs: 60, intervalMs: 5 },
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toBe(`timed out after 60 ms waiting for a row that never comes; last: still ${calls}`);
    expect(calls).toBeGreaterThan(1);
    expect(Date.now() - started).toBeGreaterThanOrEqual(60);
  });

  it('says the check returned false when that was the last thing it saw', async () => {
    await expect(eventually(() => false, { what: 'a flag', timeoutMs: 20, intervalMs: 5 })).rejects.toThrow(
      'timed out after 20 ms waiting for a flag; last: the check returned false',
    );
  });

  it('pause waits at least the time it is given', async () => {
    const started = Date.now();
    await pause(30);
    expect(Date.now() - started).toBeGreaterThanOrEqual(29);
  });
});
