import { getDataSourceToken } from '@nestjs/typeorm';
import { get } from 'node:http';
import { createBrotliDecompress, createGunzip } from 'node:zlib';
import type { DataSource } from 'typeorm';
import { accountWithCredentials, bearer } from './support/accounts';
import { expectSuccess } from './support/envelope';
import { startTestService, type TestService } from './support/harness';

const ROWS = 150_000;
/** Rows of the compressed reads: thirty of the reads' batches. */
const COMPRESSED_ROWS = 60_000;

interface Drained {
  status: number;
  bytes: number;
  /** Bytes on the wire: the compressed body when it was compressed. */
  wire: number;
  encoding: string | undefined;
  rows: number;
  heapPeak: number;
  tail: string;
}

/** Reads a response to its end without keeping it (decompressing it as it comes), sampling the heap as the body flows. */
function drain(url: string, token: string, marker: string, acceptEncoding?: 'br' | 'gzip'): Promise<Drained> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { Authorization: `Bearer ${token}`, ...(acceptEncoding ? { 'Accept-Encoding': acceptEncoding } : {}) };
    // A connection of its own: reusing the last read's kept-alive one races the server's 5 s idle
    // close when a starved machine takes that long between two tests (seen: read ECONNRESET).
    get(url, { agent: false, headers }, (raw) => {
      const encoding = raw.headers['content-encoding'];
      let wire = 0;
      raw.on('data', (chunk: Buffer) => (wire += chunk.length));
      const res = encoding === 'br' ? raw.pipe(createBrotliDecompress()) : encoding === 'gzip' ? raw.pipe(createGunzip()) : raw;
      let bytes = 0;
      let rows = 0;
      let heapPeak = 0;
      let tail = '';
      let carry = '';
      res.setEncoding('utf8');
      let chunks = 0;
      res.on('data', (chunk: string) => {
        bytes += chunk.length;
        // Live memory, not garbage: collect before sampling (the test runner has --expose-gc).
        if (++chunks % 100 === 0) global.gc?.();
        // A marker may straddle two chunks: count over the carried end of the last one too.
        const text = carry + chunk;
        rows += text.split(marker).length - 1;
        carry = text.slice(-(marker.length - 1));
        tail = (tail + chunk).slice(-200);
        heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed);
      });
      res.on('end', () => resolve({ status: raw.statusCode ?? 0, bytes, wire, encoding, rows, heapPeak, tail }));
      res.on('error', reject);
    }).on('error', reject);
  });
}

describe('streaming a long history', () => {
  if (!global.gc) throw new Error('run with --expose-gc (npm test does)');
  let svc: TestService;
  let owner: Awaited<ReturnType<typeof accountWithCredentials>>;
  const eui = '70B3D57ED0057EA1';

  beforeAll(async () => {
    svc = await startTestService();
    owner = await accountWithCredentials(svc, 'streamer');
    const device = expectSuccess<{ uid: number }>(
      await svc
        .http()
        .post(`/user/device/${eui}`)
        .set(...bearer(owner.appToken))
        .send({ decoder_ref: 2 }),
      201,
    );
    await svc.app.get<DataSource>(getDataSourceToken()).query(
      `INSERT INTO uplinks (device_id, received_at, network_ref, port, fcnt, payload, rssi, snr, decoded, valid, temperature, humidity)
       SELECT $1, timestamptz '2026-01-01' + g * interval '1 minute', 4, 1, g, '\\x036700e5', -90, 7.5,
              '{"temperature": 22.9, "temperature_3": 22.9}'::jsonb, true, 22.9, 40 + g % 20
       FROM generate_series(1, $2) g`,
      [device.uid, ROWS],
    );
  }, 120_000);
  afterAll(() => svc?.close());

  it.each([
    ['table', '{"uplink":'],
    ['data', '"time_stamp":'],
  ])(
    'serves every row of /%s with the heap not growing with the history',
    async (route, marker) => {
      global.gc?.();
      const before = process.memoryUsage().heapUsed;
      const result = await drain(`${svc.url}/user/device/${route}/${eui}`, owner.appToken, marker);
      expect(result.status).toBe(200);
      expect(result.tail.endsWith('],"success":true}')).toBe(true);
      expect(result.rows).toBe(ROWS);
      const growthMb = (result.heapPeak - before) / 1024 / 1024;
      process.stdout.write(`/${route}: ${ROWS} rows, ${(result.bytes / 1024 / 1024).toFixed(0)} MB streamed, heap grew at most ${growthMb.toFixed(0)} MB\n`);
      // 150,000 rows as objects would take several hundred MB; streamed, a batch or two at a time are alive.
      expect(growthMb).toBeLessThan(60);
    },
    120_000,
  );

  it.each([
    ['table', '{"uplink":', 'br'],
    ['data', '"time_stamp":', 'gzip'],
  ] as const)(
    'compresses /%s as a stream (%s), every row there and the heap still not growing with the history',
    async (route, marker, coding) => {
      global.gc?.();
      const before = process.memoryUsage().heapUsed;
      // A part of the history (30 batches): compressing all 105 MB of /table in the test's own
      // process took 26 s alone and past 120 s beside another suite on a 2-core CI machine, and the
      // whole history's memory is the uncompressed reads' case above.
      const result = await drain(`${svc.url}/user/device/${route}/${eui}?limit=${COMPRESSED_ROWS}`, owner.appToken, marker, coding);
      expect(result.status).toBe(200);
      expect(result.encoding).toBe(coding);
      expect(result.tail.endsWith('],"success":true}')).toBe(true);
      expect(result.rows).toBe(COMPRESSED_ROWS);
      expect(result.wire).toBeLessThan(result.bytes / 5);
      const growthMb = (result.heapPeak - before) / 1024 / 1024;
      process.stdout.write(
        `/${route} (${coding}): ${COMPRESSED_ROWS} rows, ${(result.bytes / 1024 / 1024).toFixed(0)} MB as ${(result.wire / 1024 / 1024).toFixed(1)} MB, heap grew at most ${growthMb.toFixed(0)} MB\n`,
      );
      expect(growthMb).toBeLessThan(60);
    },
    120_000,
  );
});
