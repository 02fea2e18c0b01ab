import type { Response } from 'express';
import { once } from 'node:events';

/**
 * Writes the envelope with `data` as an array streamed from `batches`: rows go out as each batch
 * arrives, and the next batch is read only when the client has taken the last (backpressure), so
 * memory holds one batch whatever the size of the whole.
 *
 * The first batch is read before anything is written: a failure then still becomes a normal error
 * envelope. A failure later can only cut the connection, which the client sees as a truncated body.
 */
export async function streamEnvelope<T>(res: Response, meta: unknown, batches: AsyncIterable<T[]>, render: (row: T) => unknown): Promise<void> {
  const iterator = batches[Symbol.asyncIterator]();
  let next = await iterator.next();
  res.status(200).type('application/json');
  // A load balancer in front (deploy/nginx.conf) buffers responses: this one must flow as it is read.
  res.setHeader('X-Accel-Buffering', 'no');
  res.write(`{"errors":[],"debug":[],"meta":${JSON.stringify(meta)},"messages":[],"data":[`);
  let first = true;
  try {
    while (!next.done) {
      let chunk = '';
      for (const row of next.value) {
        chunk += (first ? '' : ',') + JSON.stringify(render(row));
        first = false;
      }
      if (!res.write(chunk)) await Promise.race([once(res, 'drain'), once(res, 'close')]);
      if (res.destroyed) return;
      next = await iterator.next();
    }
    res.end('],"success":true}');
  } finally {
    await iterator.return?.();
  }
}
