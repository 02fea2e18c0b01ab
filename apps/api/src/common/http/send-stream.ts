import type { Response } from 'express';
import { SLICE_ROWS, sliceTurn } from './bulk-scheduler';
import { flushCompressed } from './compression';
import type { EventSink, OpenConnection } from './open-connection';
import type { StreamBody } from './stream-body';
import { whenWritable } from './when-writable';

/**
 * Writes a streamed answer (stream-body.ts), the one place a service's stream meets the HTTP
 * response, as bulk work (bulk-scheduler): the first batch is read before anything is written (a
 * failure then is still a normal error envelope); rows go out in slices as each batch arrives,
 * taken out of the batch as they are written; the batch after is asked for only once the client has
 * taken the last (backpressure; the reads repository reads one ahead), so memory holds two batches
 * whatever the size of the whole. A failure later can only cut the connection, which the client
 * sees as a truncated body. A compressed answer (compression.ts) is flushed after each batch,
 * before the next is read: the client has every row written so far, however long the read takes.
 */
export async function sendStream<T>(res: Response, stream: StreamBody<T>): Promise<void> {
  const iterator = stream.rows[Symbol.asyncIterator]();
  let next = await iterator.next();
  // A first batch that fits in one slice may be all there is (a page, a small history): then it is
  // sent in one write with its length, not in chunks over several turns (docs/benchmarks.md, figure 14).
  let after = !next.done && next.value.length <= SLICE_ROWS ? await iterator.next() : null;
  if (stream.vary) res.vary(stream.vary);
  for (const [name, value] of Object.entries(stream.headers ?? {})) res.setHeader(name, value);
  res.status(200).setHeader('Content-Type', `${stream.contentType}; charset=utf-8`);
  if (stream.filename) res.setHeader('Content-Disposition', `attachment; filename="${stream.filename}"`);
  // A load balancer in front (deploy/nginx.conf) buffers responses: this one must flow as it is read.
  res.setHeader('X-Accel-Buffering', 'no');
  let chunk = stream.preamble;
  let index = 0;
  try {
    if (after?.done) {
      for (const row of next.value as T[]) chunk += stream.line(row, index++);
      res.end(chunk + stream.epilogue);
      return;
    }
    while (!next.done) {
      const rows = next.value;
      while (rows.length > 0) {
        await sliceTurn();
        // Taken out of the batch as they are written: a written row is garbage at once, not kept
        // alive by its batch through the turns the rest of the batch waits for (which had the
        // young generation copy and promote every row: +100 MB of RSS on a 1,000,000-row read).
        for (const row of rows.splice(0, SLICE_ROWS)) chunk += stream.line(row, index++);
        if (!res.write(chunk)) await whenWritable(res);
        chunk = '';
        if (res.destroyed) return;
      }
      flushCompressed(res);
      next = after ?? (await iterator.next());
      after = null;
    }
    res.end(chunk + stream.epilogue);
  } finally {
    await iterator.return?.();
  }
}

/** A file's answer as a plain value (the signed image link): status, headers and bytes (none for 304). */
export interface FileAnswer {
  status: 200 | 206 | 304;
  contentType: string;
  headers: Readonly<Record<string, string>>;
  body: Buffer | null;
}

export function sendFile(res: Response, file: FileAnswer): void {
  for (const [name, value] of Object.entries(file.headers)) res.setHeader(name, value);
  res.type(file.contentType);
  res.status(file.status);
  if (file.body === null) res.end();
  else res.end(file.body);
}

/** The response as an open connection (open-connection.ts): what admitting a long answer needs of it. */
export function openConnection(res: Response): OpenConnection {
  return new ResponseConnection(res);
}

/** The response as a Server-Sent Events stream (open-connection.ts), for the live feeds. */
export function eventStream(res: Response): EventSink {
  return new ResponseEventStream(res);
}

class ResponseConnection implements OpenConnection {
  constructor(protected readonly res: Response) {}

  onClose(listener: () => void): void {
    this.res.once('close', listener);
  }

  destroy(): void {
    this.res.destroy();
  }

  get unsent(): number {
    return this.res.writableLength;
  }

  get flushed(): number {
    return this.res.socket?.bytesWritten ?? 0;
  }
}

class ResponseEventStream extends ResponseConnection implements EventSink {
  start(text: string): void {
    this.res.status(200);
    this.res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
    this.res.setHeader('Cache-Control', 'no-cache, no-transform');
    // nginx (deploy/nginx.conf) buffers responses; an event must reach the client when it happens.
    this.res.setHeader('X-Accel-Buffering', 'no');
    this.res.flushHeaders();
    this.res.write(text);
  }

  write(text: string): boolean {
    return this.res.write(text);
  }

  writable(): Promise<void> {
    return whenWritable(this.res);
  }

  end(): void {
    this.res.end();
  }

  abandon(): void {
    this.res.emit('close');
  }
}
