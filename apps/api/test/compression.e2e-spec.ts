import { getDataSourceToken } from '@nestjs/typeorm';
import { randomBytes } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { get, type IncomingHttpHeaders } from 'node:http';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { DataSource } from 'typeorm';
import { accountWithCredentials } from './support/accounts';
import { startTestService, type TestService } from './support/harness';

/*
 * What goes over the wire compressed and what does not: the console's assets in their prebuilt
 * brotli and gzip forms (tools/build-console.mjs), JSON answers from 1 KiB compressed as they are
 * written, streamed histories as a stream; never an event stream or an image. The console's source
 * maps only when CONSOLE_SOURCE_MAPS says so. (The hot lane's compressed answers are compared with
 * the router's in hot-lane.e2e-spec.ts, memory under a compressed 150,000-row stream in
 * streaming.e2e-spec.ts.)
 */

const ROOT = join(__dirname, '../../..');
const CONSOLE = join(ROOT, 'dist/console');

interface Raw {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** The body decoded by its Content-Encoding. */
  decoded: Buffer;
}

/** A GET whose body is kept as it came (fetch and supertest decode it). */
function raw(url: string, headers: Record<string, string> = {}): Promise<Raw> {
  return new Promise((resolve, reject) => {
    get(url, { headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const body = Buffer.concat(chunks);
        const coding = res.headers['content-encoding'];
        const decoded = coding === 'br' ? brotliDecompressSync(body) : coding === 'gzip' ? gunzipSync(body) : body;
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body, decoded });
      });
      res.on('error', reject);
    }).on('error', reject);
  });
}

/** The console's main script, as index.html names it. */
const mainScript = () => /src="\/console\/(assets\/index-[\w-]+\.js)"/.exec(readFileSync(join(CONSOLE, 'index.html'), 'utf8'))![1]!;

describe('compression', () => {
  let svc: TestService;
  let owner: Awaited<ReturnType<typeof accountWithCredentials>>;
  const auth = () => ({ Authorization: `Bearer ${owner.appToken}` });
  const eui = randomBytes(8).toString('hex').toUpperCase();

  beforeAll(async () => {
    svc = await startTestService({ env: { CONSOLE_SOURCE_MAPS: 'false' } });
    owner = await accountWithCredentials(svc, 'squeeze');
    const created = await fetch(`${svc.url}/user/device/${eui}`, {
      method: 'POST',
      headers: { ...auth(), 'Content-Type': 'application/json' },
      body: JSON.stringify({ label: 'Compressed', decoder_ref: 2 }),
    });
    expect(created.status).toBe(201);
    const device = ((await created.json()) as { data: { uid: number } }).data;
    // 3,000 uplinks: more than one batch of the streamed reads (2,000), so the stream is flushed between them.
    await svc.app.get<DataSource>(getDataSourceToken()).query(
      `INSERT INTO uplinks (device_id, received_at, network_ref, port, fcnt, payload, rssi, snr, decoded, valid, temperature, humidity)
       SELECT $1, timestamptz '2026-01-01' + g * interval '1 minute', 4, 1, g, '\\x036700e5', -90, 7.5,
              '{"temperature": 22.9, "temperature_3": 22.9}'::jsonb, true, 22.9, 40 + g % 20
       FROM generate_series(1, 3000) g`,
      [device.uid],
    );
  }, 120_000);
  afterAll(() => svc?.close());

  describe('the console’s assets', () => {
    it('serves the prebuilt brotli or gzip form as the request accepts, each with its own length and ETag', async () => {
      const path = mainScript();
      const file = (suffix: string) => readFileSync(join(CONSOLE, `${path}${suffix}`));
      const original = file('');
      const answers = {
        br: await raw(`${svc.url}/console/${path}`, { 'Accept-Encoding': 'gzip, deflate, br' }),
        gzip: await raw(`${svc.url}/console/${path}`, { 'Accept-Encoding': 'gzip' }),
        identity: await raw(`${svc.url}/console/${path}`),
      };
      for (const [coding, answer] of Object.entries(answers)) {
        expect(answer.status).toBe(200);
        expect(answer.headers['content-type']).toBe('text/javascript; charset=utf-8');
        expect(answer.headers['vary']).toBe('Accept-Encoding');
        expect(answer.headers['cache-control']).toBe('public, max-age=31536000, immutable');
        expect(answer.headers['content-encoding']).toBe(coding === 'identity' ? undefined : coding);
        expect(answer.decoded.equals(original)).toBe(true);
      }
      expect(answers.br.body.equals(file('.br'))).toBe(true);
      expect(answers.gzip.body.equals(file('.gz'))).toBe(true);
      expect(Number(answers.br.headers['content-length'])).toBe(statSync(join(CONSOLE, `${path}.br`)).size);
      expect(Number(answers.gzip.headers['content-length'])).toBe(statSync(join(CONSOLE, `${path}.gz`)).size);
      expect(Number(answers.identity.headers['content-length'])).toBe(original.length);
      // The main bundle goes at about a quarter of its size.
      expect(answers.br.body.length).toBeLessThan(original.length * 0.35);
      const etags = Object.values(answers).map((a) => a.headers['etag']);
      expect(new Set(etags).size).toBe(3);
      // A revalidation names the form it has: 304 for it, the full answer for another form.
      expect((await raw(`${svc.url}/console/${path}`, { 'Accept-Encoding': 'br', 'If-None-Match': etags[0]! })).status).toBe(304);
      expect((await raw(`${svc.url}/console/${path}`, { 'Accept-Encoding': 'gzip', 'If-None-Match': etags[0]! })).status).toBe(200);
      // q=0 refuses a coding; the forms are not addressable by their own names.
      expect((await raw(`${svc.url}/console/${path}`, { 'Accept-Encoding': 'br;q=0, gzip' })).headers['content-encoding']).toBe('gzip');
      expect((await raw(`${svc.url}/console/${path}.br`, { 'Accept-Encoding': 'br' })).status).toBe(404);
    });

    it('keeps the source maps to itself unless CONSOLE_SOURCE_MAPS says so, and then names each in a SourceMap header', async () => {
      const path = mainScript();
      expect(readFileSync(join(CONSOLE, path), 'utf8')).not.toContain('sourceMappingURL');
      const script = await raw(`${svc.url}/console/${path}`);
      expect(script.headers['sourcemap']).toBeUndefined();
      expect((await raw(`${svc.url}/console/${path}.map`)).status).toBe(404);

      const withMaps = await startTestService({ env: { CONSOLE_SOURCE_MAPS: 'true' }, sameDatabaseAs: svc });
      try {
        const name = path.split('/').pop()!;
        expect((await raw(`${withMaps.url}/console/${path}`)).headers['sourcemap']).toBe(`${name}.map`);
        const map = await raw(`${withMaps.url}/console/${path}.map`, { 'Accept-Encoding': 'br' });
        expect(map.status).toBe(200);
        expect(map.headers['content-encoding']).toBe('br');
        expect((JSON.parse(map.decoded.toString('utf8')) as { version: number; sources: string[] }).version).toBe(3);
      } finally {
        await withMaps.close();
      }
    });
  });

  describe('the service’s answers', () => {
    it('compresses a JSON answer from 1 KiB as the request accepts, and leaves a smaller one as it is', async () => {
      const url = `${svc.url}/user/device/data/${eui}?limit=40`;
      const plain = await raw(url, auth());
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.body.length).toBeGreaterThan(1024);
      for (const coding of ['br', 'gzip'] as const) {
        const answer = await raw(url, { ...auth(), 'Accept-Encoding': coding });
        expect(answer.headers['content-encoding']).toBe(coding);
        expect(answer.headers['vary']).toMatch(/Accept-Encoding/);
        expect(answer.decoded.equals(plain.body)).toBe(true);
        expect(answer.body.length).toBeLessThan(plain.body.length / 3);
      }
      const small = await raw(`${svc.url}/version`, { 'Accept-Encoding': 'br, gzip' });
      expect(small.body.length).toBeLessThan(1024);
      expect(small.headers['content-encoding']).toBeUndefined();
      expect(small.headers['vary']).toBe('Accept-Encoding');
      // An error envelope is an answer like another.
      const missing = await raw(`${svc.url}/user/device/data/${'0'.repeat(16)}`, { ...auth(), 'Accept-Encoding': 'br' });
      expect(missing.status).toBe(404);
    });

    it('compresses a streamed history as a stream that decodes to exactly the plain one (CSV, over two read batches)', async () => {
      const url = `${svc.url}/user/device/table/${eui}?format=csv`;
      const plain = await raw(url, auth());
      const compressed = await raw(url, { ...auth(), 'Accept-Encoding': 'br' });
      expect(compressed.headers['content-encoding']).toBe('br');
      expect(compressed.headers['transfer-encoding']).toBe('chunked');
      expect(compressed.headers['x-accel-buffering']).toBe('no');
      expect(plain.body.toString('utf8').trimEnd().split('\n')).toHaveLength(3_001);
      expect(compressed.decoded.equals(plain.body)).toBe(true);
      expect(compressed.body.length).toBeLessThan(plain.body.length / 8);
    });

    it('never compresses an event stream', async () => {
      const answer = await new Promise<IncomingHttpHeaders>((resolve, reject) => {
        const req = get(`${svc.url}/user/live`, { headers: { ...auth(), 'Accept-Encoding': 'br, gzip' }, agent: false }, (res) => {
          resolve(res.headers);
          req.destroy();
        });
        req.on('error', (error) => (req.destroyed ? undefined : reject(error)));
      });
      expect(answer['content-type']).toBe('text/event-stream; charset=utf-8');
      expect(answer['content-encoding']).toBeUndefined();
    });

    it('never compresses an image, already compressed bytes', async () => {
      const photo = readFileSync(join(ROOT, 'test-data/camera-traps/photos/ocelot.jpg'));
      const form = new FormData();
      form.append('file', new Blob([photo], { type: 'image/jpeg' }), 'ocelot.jpg');
      const uploaded = await fetch(`${svc.url}/user/device/image/${eui}`, { method: 'POST', headers: auth(), body: form });
      expect(uploaded.status).toBe(201);
      const hash = ((await uploaded.json()) as { data: { hash: string } }).data.hash;
      const detail = (await (await fetch(`${svc.url}/user/device/image/${eui}/${hash}`, { headers: auth() })).json()) as { data: { meta: { url: string } } };
      const link = new URL(detail.data.meta.url);
      const image = await raw(`${svc.url}${link.pathname}${link.search}`, { 'Accept-Encoding': 'br, gzip' });
      expect(image.status).toBe(200);
      expect(image.headers['content-type']).toBe('image/jpeg');
      expect(image.headers['content-encoding']).toBeUndefined();
      expect(image.body.equals(photo)).toBe(true);
    });
  });
});
