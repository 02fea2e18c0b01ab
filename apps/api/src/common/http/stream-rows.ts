import type { Response } from 'express';
import { SLICE_ROWS, sliceTurn } from './bulk-scheduler';
import { whenWritable } from './when-writable';

export interface RowStream<T> {
  /** Status and headers, set once the first batch has been read. */
  head: (res: Response) => void;
  /** Written before the first row. */
  preamble: string;
  /** One row's text; `index` counts rows from 0 over the whole stream. */
  line: (row: T, index: number) => string;
  /** Written after the last row. */
  epilogue: string;
}

/**
 * Streams rows read in `batches` to the response as bulk work (bulk-scheduler): the first batch is
 * read before anything is written (a failure then is still a normal error envelope); rows go out
 * in slices as each batch arrives; the next batch is read only once the client has taken the last
 * (backpressure), so memory holds one batch whatever the size of the whole. A failure later can
 * only cut the connection, which the client sees as a truncated body.
 */
export async function streamRows<T>(res: Response, batches: AsyncIterable<T[]>, stream: RowStream<T>): Promise<void> {
  const iterator = batches[Symbol.asyncIterator]();
  let next = await iterator.next();
  stream.head(res);
  // A load balancer in front (deploy/nginx.conf) buffers responses: this one must flow as it is read.
  res.setHeader('X-Accel-Buffering', 'no');
  let chunk = stream.preamble;
  let index = 0;
  try {
    while (!next.done) {
      const rows = next.value;
      for (let start = 0; start < rows.length; start += SLICE_ROWS) {
        await sliceTurn();
        const end = Math.min(rows.length, start + SLICE_ROWS);
        for (let i = start; i < end; i++) chunk += stream.line(rows[i], index++);
        if (!res.write(chunk)) await whenWritable(res);
        chunk = '';
        if (res.destroyed) return;
      }
      next = await iterator.next();
    }
    res.end(chunk + stream.epilogue);
  } finally {
    await iterator.return?.();
  }
}
