import { sliceTurn } from './bulk-scheduler';

/** A stream of `slices` slices that records each one it renders. */
async function stream(name: string, slices: number, log: string[]): Promise<void> {
  for (let i = 0; i < slices; i++) {
    await sliceTurn();
    log.push(`${name}${i}`);
  }
}

describe('sliceTurn', () => {
  it('gives the streams of the process one slice per turn, round robin', async () => {
    const log: string[] = [];
    await Promise.all([stream('a', 3, log), stream('b', 3, log), stream('c', 1, log)]);
    expect(log).toEqual(['a0', 'b0', 'c0', 'a1', 'b1', 'a2', 'b2']);
  });

  it('lets other work of the event loop run between two slices', async () => {
    const log: string[] = [];
    const streams = Promise.all([stream('a', 3, log), stream('b', 3, log)]);
    // Work that arrives meanwhile (a small request's next step) waits for one slice, not all six.
    setImmediate(() => log.push('other'));
    await streams;
    expect(log.indexOf('other')).toBeLessThanOrEqual(2);
    expect(log).toHaveLength(7);
  });
});
