import type { Response } from 'express';
import { SLICE_ROWS } from './bulk-scheduler';
import { sendStream } from './send-stream';
import { envelopeOfJson } from './stream-body';

/** The parts of a response sendStream uses, recording what is written. */
function fakeResponse(onWrite: () => void) {
  const written: string[] = [];
  const res = {
    destroyed: false,
    headers: {} as Record<string, string>,
    vary: () => res,
    status: () => res,
    setHeader: (name: string, value: string) => (res.headers[name] = value),
    write: (text: string) => {
      written.push(text);
      onWrite();
      return true;
    },
    end: (text: string) => written.push(text),
  };
  return { res: res as unknown as Response, written };
}

describe('sendStream', () => {
  it('writes every row in slices and takes each slice out of its batch as it writes it', async () => {
    const first = Array.from({ length: 2 * SLICE_ROWS + 100 }, (_, i) => `${i}`);
    const second = [`${first.length}`];
    const batchesLeft: number[] = [];
    const { res, written } = fakeResponse(() => batchesLeft.push(first.length));
    async function* rows() {
      yield first;
      yield second;
    }

    await sendStream(
      res,
      envelopeOfJson([], rows(), (row: string) => row),
    );

    // A written row is no longer held by its batch: the batch shrinks slice by slice.
    expect(batchesLeft).toEqual([SLICE_ROWS + 100, 100, 0, 0]);
    const body = JSON.parse(written.join(''));
    expect(body.data).toEqual(Array.from({ length: 2 * SLICE_ROWS + 101 }, (_, i) => i));
    expect(written).toHaveLength(5); // three slices of the first batch, one of the second, the end
  });

  it('writes the body’s own headers beside its type, before the first row', async () => {
    const { res, written } = fakeResponse(() => undefined);
    const headers = (res as unknown as { headers: Record<string, string> }).headers;
    const seenAtFirstWrite: Record<string, string>[] = [];
    const write = res.write.bind(res);
    (res as unknown as { write: (t: string) => boolean }).write = (text: string) => {
      seenAtFirstWrite.push({ ...headers });
      return write(text);
    };
    // Two batches: an answer of one small batch is not streamed (below).
    async function* rows() {
      yield ['1'];
      yield ['2'];
    }

    await sendStream(res, { ...envelopeOfJson([], rows(), (row: string) => row), headers: { 'X-Retention-Days': '10', 'X-Raw-History-From': '1795219200' } });

    expect(seenAtFirstWrite[0]).toEqual({
      'Content-Type': 'application/json; charset=utf-8',
      'X-Accel-Buffering': 'no',
      'X-Retention-Days': '10',
      'X-Raw-History-From': '1795219200',
    });
    expect(JSON.parse(written.join('')).data).toEqual([1, 2]);
  });

  it('sends an answer of one batch that fits in a slice in one write, and a longer one in parts', async () => {
    async function* batches(...sizes: number[]) {
      let n = 0;
      for (const size of sizes) yield Array.from({ length: size }, () => `${n++}`);
    }
    const writes = async (...sizes: number[]) => {
      const { res, written } = fakeResponse(() => undefined);
      let ended = 0;
      const end = res.end.bind(res);
      (res as unknown as { end: (t: string) => void }).end = (text: string) => (ended++, end(text));
      await sendStream(
        res,
        envelopeOfJson([], batches(...sizes), (row: string) => row),
      );
      expect(ended).toBe(1);
      expect(JSON.parse(written.join('')).data).toHaveLength(sizes.reduce((a, b) => a + b, 0));
      return written.length;
    };
    expect(await writes(10)).toBe(1);
    expect(await writes(SLICE_ROWS)).toBe(1);
    expect(await writes()).toBe(1);
    expect(await writes(10, 10)).toBe(3);
    expect(await writes(SLICE_ROWS + 1)).toBe(3);
  });
});
