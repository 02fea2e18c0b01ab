import { createServer, get, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { brotliDecompressSync, createBrotliDecompress, createGunzip, gunzipSync, gzipSync } from 'node:zlib';
import { whenWritable } from './when-writable';
import { compressionMiddleware, flushCompressed, isCompressible, negotiateEncoding } from './compression';

describe('negotiateEncoding', () => {
  it('takes the acceptable coding with the highest q, brotli on a tie', () => {
    expect(negotiateEncoding('gzip, deflate, br')).toBe('br');
    expect(negotiateEncoding('gzip')).toBe('gzip');
    expect(negotiateEncoding('br;q=0.5, gzip;q=0.8')).toBe('gzip');
    expect(negotiateEncoding('br;q=0, gzip')).toBe('gzip');
    expect(negotiateEncoding('*')).toBe('br');
    expect(negotiateEncoding('*;q=0.1, br;q=0')).toBe('gzip');
    expect(negotiateEncoding('GZIP;Q=1')).toBe('gzip');
  });

  it('answers identity (null) when nothing it writes is acceptable', () => {
    expect(negotiateEncoding(undefined)).toBeNull();
    expect(negotiateEncoding('')).toBeNull();
    expect(negotiateEncoding('identity')).toBeNull();
    expect(negotiateEncoding('deflate')).toBeNull();
    expect(negotiateEncoding('gzip;q=0, br;q=0')).toBeNull();
    expect(negotiateEncoding('br, gzip', ['gzip'])).toBe('gzip');
  });
});

describe('isCompressible', () => {
  it('takes text and never an event stream or compressed bytes', () => {
    for (const type of [
      'application/json; charset=utf-8',
      'application/x-ndjson',
      'text/csv; charset=utf-8',
      'text/plain',
      'text/javascript',
      'image/svg+xml',
      'application/problem+json',
    ])
      expect([type, isCompressible(type)]).toEqual([type, true]);
    for (const type of ['text/event-stream; charset=utf-8', 'image/jpeg', 'image/png', 'font/woff2', 'application/octet-stream', 'application/zip', ''])
      expect([type, isCompressible(type)]).toEqual([type, false]);
  });
});

/** A server whose every request goes through the middleware to `handler`. */
async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<{ url: string; server: Server }> {
  const middleware = compressionMiddleware();
  const server = createServer((req, res) => middleware(req, res, () => handler(req, res)));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

interface Answer {
  status: number;
  headers: IncomingMessage['headers'];
  /** The bytes as they came. */
  body: Buffer;
  /** The body decoded by its Content-Encoding. */
  text: string;
}

function fetchRaw(url: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Answer> {
  return new Promise((resolve, reject) => {
    get(url, { method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const body = Buffer.concat(chunks);
        const coding = res.headers['content-encoding'];
        const text = (coding === 'br' ? brotliDecompressSync(body) : coding === 'gzip' ? gunzipSync(body) : body).toString('utf8');
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body, text });
      });
      res.on('error', reject);
    }).on('error', reject);
  });
}

const BIG = JSON.stringify({ data: Array.from({ length: 200 }, (_, i) => ({ uid: i, temperature: 21.5, humidity: 40 })) });

describe('compressionMiddleware', () => {
  let server: Server | null = null;
  afterEach(async () => {
    // A test that failed mid-answer leaves its connection open: cut it, or close would wait for it.
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
    server = null;
  });

  it('compresses a JSON answer at or above the threshold as the request accepts, with Vary, no Content-Length, a weak ETag', async () => {
    const s = await serve((_, res) => {
      res.setHeader('Content-Type', 'application/json; charset=utf-8');
      res.setHeader('Content-Length', Buffer.byteLength(BIG));
      res.setHeader('ETag', '"abc"');
      res.end(BIG);
    });
    server = s.server;
    for (const coding of ['br', 'gzip'] as const) {
      const answer = await fetchRaw(s.url, { 'Accept-Encoding': coding === 'br' ? 'gzip, br' : 'gzip' });
      expect(answer.headers['content-encoding']).toBe(coding);
      expect(answer.headers['vary']).toBe('Accept-Encoding');
      expect(answer.headers['content-length']).toBeUndefined();
      expect(answer.headers['etag']).toBe('W/"abc"');
      expect(answer.text).toBe(BIG);
      expect(answer.body.length).toBeLessThan(BIG.length / 5);
    }
    const plain = await fetchRaw(s.url);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers['content-length']).toBe(String(BIG.length));
    expect(plain.headers['vary']).toBe('Accept-Encoding');
    expect(plain.text).toBe(BIG);
  });

  it('leaves alone a small body, HEAD, an event stream, an image, a 304, no-transform and what is encoded already', async () => {
    const cases: Record<string, (res: ServerResponse) => void> = {
      '/small': (res) => res.setHeader('Content-Type', 'application/json').end('{"success":true}'),
      '/events': (res) => {
        res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
        res.end(`data: ${'x'.repeat(4000)}\n\n`);
      },
      '/image': (res) => res.setHeader('Content-Type', 'image/jpeg').end(Buffer.alloc(4000, 7)),
      '/not-modified': (res) => {
        res.statusCode = 304;
        res.setHeader('Content-Type', 'application/json');
        res.end();
      },
      '/no-transform': (res) => res.setHeader('Content-Type', 'application/json').setHeader('Cache-Control', 'no-transform').end(BIG),
      '/encoded': (res) => res.setHeader('Content-Type', 'text/javascript').setHeader('Content-Encoding', 'gzip').end(gzipSync(BIG)),
      '/head': (res) => res.setHeader('Content-Type', 'application/json').setHeader('Content-Length', BIG.length).end(),
    };
    const s = await serve((req, res) => cases[req.url!]!(res));
    server = s.server;
    for (const path of Object.keys(cases)) {
      const answer = await fetchRaw(`${s.url}${path}`, { 'Accept-Encoding': 'br, gzip' }, path === '/head' ? 'HEAD' : 'GET');
      const coding = answer.headers['content-encoding'];
      expect([path, coding]).toEqual([path, path === '/encoded' ? 'gzip' : undefined]);
    }
    expect((await fetchRaw(`${s.url}/events`, { 'Accept-Encoding': 'br' })).headers['vary']).toBeUndefined();
    expect((await fetchRaw(`${s.url}/head`, { 'Accept-Encoding': 'br' }, 'HEAD')).headers['vary']).toBe('Accept-Encoding');
  });

  it('compresses a body written in parts as a stream: a flush hands the client what was written so far, before the end', async () => {
    let finish: () => void = () => undefined;
    const s = await serve((_, res) => {
      res.setHeader('Content-Type', 'application/x-ndjson');
      res.write(`${'{"row":1}\n'.repeat(300)}`);
      flushCompressed(res);
      finish = () => res.end('{"row":"last"}\n');
    });
    server = s.server;
    for (const coding of ['br', 'gzip'] as const) {
      const text = await new Promise<string>((resolve, reject) => {
        get(s.url, { headers: { 'Accept-Encoding': coding }, agent: false }, (res) => {
          expect(res.headers['content-encoding']).toBe(coding);
          const decoded = res.pipe(coding === 'br' ? createBrotliDecompress() : createGunzip());
          let text = '';
          decoded.on('data', (chunk: Buffer) => {
            text += chunk.toString('utf8');
            // Everything before the flush arrived while the server still holds the response open.
            if (text.length === 3000) finish();
          });
          decoded.on('end', () => resolve(text));
          decoded.on('error', reject);
        }).on('error', reject);
      });
      expect(text).toBe(`${'{"row":1}\n'.repeat(300)}{"row":"last"}\n`);
    }
  });

  it('keeps backpressure: a writer that waits for drain gets ahead of a slow reader by buffers, not by the whole body', async () => {
    // Hex of random bytes halves under gzip: the socket fills as it would with real rows (a body
    // that shrinks a thousandfold never fills it, and tells nothing).
    const chunk = randomBytes(8_192).toString('hex');
    const total = 2_500;
    let largestBacklog = 0;
    let written = 0;
    const s = await serve((_, res) => {
      res.setHeader('Content-Type', 'application/x-ndjson');
      void (async () => {
        for (let i = 0; i < total; i++) {
          if (!res.write(chunk)) await whenWritable(res as never);
          written++;
        }
        res.end();
      })();
    });
    server = s.server;
    const received = await new Promise<number>((resolve, reject) => {
      get(s.url, { headers: { 'Accept-Encoding': 'gzip' }, agent: false }, (res) => {
        const decoded = res.pipe(createGunzip());
        let bytes = 0;
        // A slow reader: the writer must wait for it rather than fill memory.
        decoded.on('data', (c: Buffer) => {
          bytes += c.length;
          largestBacklog = Math.max(largestBacklog, written * chunk.length - bytes);
          res.pause();
          setImmediate(() => res.resume());
        });
        decoded.on('end', () => resolve(bytes));
        decoded.on('error', reject);
      }).on('error', reject);
    });
    expect(received).toBe(total * chunk.length);
    // 2,500 writes of 16 kB (40 MB): what was written and not yet read stays a few buffers' worth
    // (the compressor's, the socket's and the kernel's on both ends).
    expect(largestBacklog).toBeLessThan(12 * 1024 * 1024);
  }, 60_000);
});
