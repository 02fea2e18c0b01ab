import type { Response } from 'express';
import { streamRows } from './stream-rows';

/**
 * Writes the envelope with `data` as an array streamed from `batches` (see streamRows: backpressure,
 * one batch in memory, the first batch read before anything is written).
 */
export function streamEnvelope<T>(res: Response, meta: unknown, batches: AsyncIterable<T[]>, render: (row: T) => unknown): Promise<void> {
  return streamRows(res, batches, {
    head: (r) => r.status(200).type('application/json'),
    preamble: `{"errors":[],"debug":[],"meta":${JSON.stringify(meta)},"messages":[],"data":[`,
    line: (row, index) => (index === 0 ? '' : ',') + JSON.stringify(render(row)),
    epilogue: '],"success":true}',
  });
}
