import type { IncomingMessage, ServerResponse } from 'node:http';
import { type BrotliCompress, constants, createBrotliCompress, createGzip, type Gzip } from 'node:zlib';

/** The codings the service writes, the one it prefers first. */
export const CODINGS = ['br', 'gzip'] as const;
export type Coding = (typeof CODINGS)[number];

/** A body smaller than this goes as it is: compressing it saves less than the headers cost. */
export const COMPRESSION_THRESHOLD_BYTES = 1024;

/**
 * What is worth compressing: text (JSON, NDJSON, CSV, the metrics' text, HTML, scripts, styles,
 * SVG). Never an event stream (each event must reach the client when it happens, and a proxy must
 * see it unbuffered) and never bytes that are compressed already (images, fonts, archives).
 */
const COMPRESSIBLE =
  /^(?:application\/(?:json|x-ndjson|javascript|xml|[\w.+-]+\+json|[\w.+-]+\+xml)|text\/(?!event-stream\b)[\w.+-]+|image\/svg\+xml)\s*(?:;|$)/i;

export function isCompressible(contentType: string): boolean {
  return COMPRESSIBLE.test(contentType);
}

/**
 * The coding to answer with for an `Accept-Encoding` (RFC 9110 §12.5.3): the acceptable one (q > 0,
 * named or through `*`) of `available` with the highest q, ties going to the first of `available`;
 * null for none (identity).
 */
export function negotiateEncoding(header: string | undefined, available: readonly Coding[] = CODINGS): Coding | null {
  if (!header) return null;
  const q = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    let weight = 1;
    for (const param of params) {
      const [key, value] = param.trim().split('=');
      if (key === 'q') weight = Number(value);
    }
    if (Number.isFinite(weight)) q.set(name, Math.max(q.get(name) ?? 0, weight));
  }
  let best: Coding | null = null;
  let bestQ = 0;
  for (const coding of available) {
    const weight = q.get(coding) ?? q.get('*') ?? 0;
    if (weight > bestQ) [best, bestQ] = [coding, weight];
  }
  return best;
}

/** A response's headers: Node's response or Express's (whose `req` the two type packages declare differently). */
interface Headers {
  getHeader(name: string): number | string | string[] | undefined;
  setHeader(name: string, value: string): unknown;
}

/** Adds `field` to the response's Vary unless it is there (or Vary is `*`). */
export function addVary(res: Headers, field: string): void {
  const current = res.getHeader('Vary');
  const list = (Array.isArray(current) ? current.join(',') : String(current ?? ''))
    .split(',')
    .map((f) => f.trim())
    .filter(Boolean);
  if (list.includes('*') || list.some((f) => f.toLowerCase() === field.toLowerCase())) return;
  res.setHeader('Vary', [...list, field].join(', '));
}

const FLUSH = Symbol('compression flush');
type Flushable = ServerResponse & { [FLUSH]?: () => void };

/**
 * Sends what the response's compressor holds so far (a sync flush: the stream stays one stream,
 * the client can decode everything written up to here). A streamed answer calls it when it is about
 * to wait (sendStream, before reading the next batch); without compression it does nothing.
 */
export function flushCompressed(res: object): void {
  (res as Flushable)[FLUSH]?.();
}

type Write = ServerResponse['write'];
type End = ServerResponse['end'];
type Callback = (error?: Error | null) => void;

/** Brotli at quality 4 compresses JSON as fast as gzip's default level and 10–20% smaller (docs/benchmarks.md). */
const BROTLI_QUALITY = 4;

function compressor(coding: Coding, sizeHint: number | undefined): Gzip | BrotliCompress {
  if (coding === 'gzip') return createGzip();
  return createBrotliCompress({
    params: {
      [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      ...(sizeHint !== undefined ? { [constants.BROTLI_PARAM_SIZE_HINT]: sizeHint } : {}),
    },
  });
}

/**
 * Compresses responses as they are written, gzip or brotli as the request accepts: the answers of
 * every route, the streamed histories included. Decided when the first bytes are written, from
 * the headers then set: a compressible type, no Content-Encoding yet, no `Cache-Control: no-transform`, a status with a
 * body, and a body of at least COMPRESSION_THRESHOLD_BYTES (its Content-Length, or all of it when
 * it is written at once; a body written in parts is a stream and is compressed). Vary:
 * Accept-Encoding goes on every compressible answer, compressed or not.
 *
 * A compressed body is written as it is compressed (the compressor works off the event loop, in
 * libuv's pool), with backpressure both ways: the writer's `write()` is false and its 'drain' comes
 * when the compressor has taken what it was given, and the compressor pauses while the client does
 * not read. Content-Length goes (the length is not known before the end), a strong ETag becomes weak
 * (the bytes differ, the content does not).
 */
export function compressionMiddleware(threshold = COMPRESSION_THRESHOLD_BYTES) {
  return (req: IncomingMessage, res: ServerResponse, next: () => void): void => {
    compressResponse(req, res, threshold);
    next();
  };
}

function compressResponse(req: IncomingMessage, res: ServerResponse, threshold: number): void {
  const coding = negotiateEncoding(req.headers['accept-encoding']);
  const write = res.write.bind(res) as (chunk: unknown, encoding?: BufferEncoding, cb?: Callback) => boolean;
  const end = res.end.bind(res) as (chunk?: unknown, encoding?: BufferEncoding, cb?: () => void) => ServerResponse;
  const on = res.on.bind(res);
  let decided = false;
  let stream: Gzip | BrotliCompress | null = null;

  const decide = (length: number | undefined): void => {
    decided = true;
    if (res.headersSent) return;
    const type = String(res.getHeader('Content-Type') ?? '');
    const status = res.statusCode;
    if (!isCompressible(type) || status < 200 || status === 204 || status === 304) return;
    addVary(res, 'Accept-Encoding');
    if (!coding || req.method === 'HEAD') return;
    const encoding = res.getHeader('Content-Encoding');
    if (encoding !== undefined && String(encoding).toLowerCase() !== 'identity') return;
    if (/(?:^|,)\s*no-transform\s*(?:,|$)/i.test(String(res.getHeader('Cache-Control') ?? ''))) return;
    const declared = res.getHeader('Content-Length');
    const size = declared !== undefined ? Number(declared) : length;
    if (size !== undefined && size < threshold) return;

    res.removeHeader('Content-Length');
    res.setHeader('Content-Encoding', coding);
    const etag = res.getHeader('ETag');
    if (typeof etag === 'string' && etag.startsWith('"')) res.setHeader('ETag', `W/${etag}`);
    const z = compressor(coding, size);
    stream = z;
    z.on('data', (chunk: Buffer) => {
      if (!write(chunk)) z.pause();
    });
    // The socket's own drain: the compressor goes on. (The writer's drain is the compressor's, below.)
    on('drain', () => z.resume());
    z.on('end', () => end());
    z.on('error', (error) => res.destroy(error));
    res.once('close', () => {
      if (!res.writableFinished) z.destroy();
    });
    (res as Flushable)[FLUSH] = () => {
      if (!z.destroyed && !z.writableEnded) z.flush(coding === 'br' ? constants.BROTLI_OPERATION_FLUSH : constants.Z_SYNC_FLUSH);
    };
  };

  res.write = function (this: ServerResponse, chunk: unknown, encoding?: BufferEncoding | Callback, cb?: Callback): boolean {
    if (!decided) decide(undefined);
    if (!stream) return write(chunk, encoding as BufferEncoding, cb);
    return typeof encoding === 'function' ? stream.write(chunk, encoding) : stream.write(chunk, encoding as BufferEncoding, cb);
  } as Write;

  res.end = function (this: ServerResponse, chunk?: unknown, encoding?: BufferEncoding | (() => void), cb?: () => void): ServerResponse {
    if (typeof chunk === 'function') [chunk, encoding, cb] = [undefined, undefined, chunk as () => void];
    else if (typeof encoding === 'function') [encoding, cb] = [undefined, encoding];
    if (!decided) {
      const length =
        chunk === undefined || chunk === null ? 0 : typeof chunk === 'string' ? Buffer.byteLength(chunk, encoding) : (chunk as Uint8Array).byteLength;
      decide(length);
    }
    if (!stream) return end(chunk, encoding, cb);
    if (cb) res.once('finish', cb);
    if (chunk === undefined || chunk === null) stream.end();
    else stream.end(chunk, encoding as BufferEncoding);
    return res;
  } as End;

  // The writer waits for 'drain' after a refused write: once compressing, that is the compressor's
  // (it has taken what it was given), not the socket's, which the compressor itself waits for.
  const redirect = <K extends 'on' | 'once' | 'off' | 'addListener' | 'removeListener'>(method: K) => {
    const original = res[method].bind(res) as (event: string | symbol, listener: (...args: unknown[]) => void) => ServerResponse;
    res[method] = function (this: ServerResponse, event: string | symbol, listener: (...args: unknown[]) => void) {
      if (event === 'drain' && stream) {
        (stream as NodeJS.EventEmitter)[method](event, listener);
        return res;
      }
      return original(event, listener);
    } as ServerResponse[K];
  };
  for (const method of ['on', 'once', 'off', 'addListener', 'removeListener'] as const) redirect(method);
}
