import { getDataSourceToken } from '@nestjs/typeorm';
import type { AnnotationWire, ImageDetailWire, ImageListEntryWire } from '@dts/domain';
import { eventually } from '@dts/platform';
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import type { Response } from 'supertest';
import type { DataSource } from 'typeorm';
import { ImageLinksService } from '../src/modules/images/image-links.service';
import { accountWithCredentials, bearer, tokenClient } from './support/accounts';
import { expectError, expectSuccess } from './support/envelope';
import { startTestService, TEST_SECRETS, type TestService } from './support/harness';
import { type LiveEvent, SseClient, until as untilSeen } from './support/sse-client';

/*
 * Camera-trap images (docs/api.md §15, §7 and §11):
 * upload as a user and through /ingest/image, content hashes, EXIF, the worker's thumbnail and
 * status, listing, detail, annotations in three formats, signed links (ETag, ranges, tampering),
 * deletion and purge, ownership and sharing, hostile image hashes and missing credentials.
 */

type Caller = Awaited<ReturnType<typeof accountWithCredentials>>;
type Detail = ImageDetailWire;
type Entry = ImageListEntryWire;
type Fields = Record<string, string | number>;

const newEui = () => randomBytes(8).toString('hex').toUpperCase();
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const nowUnix = () => Math.floor(Date.now() / 1000);
const secretHeader: [string, string] = ['X-Ingest-Secret', TEST_SECRETS.INGEST_SECRET];

const DETAIL_META_MEMBERS = [
  'uid',
  'camera_ref',
  'ts_photo_unix',
  'ts_tx_unix',
  'ts_sync_unix',
  'vendor_id',
  'url',
  'longitude',
  'latitude',
  'image_details',
  'annotations',
  'prediction',
  'status',
  'deleted',
  'filename',
  'hash',
  'bin_hash',
];
const LIST_MEMBERS = ['hash', 'ts_photo_unix', 'ts_tx_unix', 'ts_sync_unix', 'lat', 'lon', 'annotations', 'prediction', 'status', 'filename'];

/** Real photos and detector outputs (sources in test-data/camera-traps/README.md). */
const CAMERA_TRAPS = join(__dirname, '../../../test-data/camera-traps');

/** 2024-03-05T06:07:08Z, the capture time written into the EXIF test photo. */
const EXIF_TIME = Date.UTC(2024, 2, 5, 6, 7, 8) / 1000;
/** 46°30' N, 7°15' W. */
const EXIF_LAT = 46.5;
const EXIF_LON = -7.25;

/** A real photo-like picture: a coloured background with a few shapes, different for every seed. */
async function scene(seed: number, format: 'jpeg' | 'png' = 'jpeg', width = 640, height = 480): Promise<Buffer> {
  const c = (n: number) => (seed * 53 + n * 97) % 256;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <rect x="40" y="60" width="200" height="150" fill="rgb(${c(1)},${c(2)},${c(3)})"/>
    <circle cx="${420 + (seed % 40)}" cy="260" r="110" fill="rgb(${c(4)},${c(5)},${c(6)})"/>
    <polygon points="100,440 300,300 520,460" fill="rgb(${c(7)},${c(8)},${c(9)})"/>
  </svg>`;
  const base = sharp({ create: { width, height, channels: 3, background: { r: c(10), g: c(11), b: c(12) } } }).composite([{ input: Buffer.from(svg) }]);
  return format === 'png' ? base.png().toBuffer() : base.jpeg({ quality: 85 }).toBuffer();
}

/** A JPEG whose EXIF holds the capture time (EXIF_TIME) and a GPS position (EXIF_LAT, EXIF_LON). */
async function exifPhoto(seed: number): Promise<Buffer> {
  const plain = await scene(seed);
  return sharp(plain)
    .jpeg({ quality: 85 })
    .withExif({
      IFD0: { Make: 'TrapCam', Model: 'TC-1', DateTime: '2024:03:05 06:07:08' },
      IFD2: { DateTimeOriginal: '2024:03:05 06:07:08' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '46/1 30/1 0/1', GPSLongitudeRef: 'W', GPSLongitude: '7/1 15/1 0/1' },
    })
    .toBuffer();
}

/** superagent parser that keeps any body as bytes. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- superagent's parser hands over its own response type, a readable stream
function binary(res: any, callback: (err: Error | null, body: Buffer) => void) {
  const chunks: Buffer[] = [];
  res.on('data', (chunk: Buffer) => chunks.push(chunk));
  res.on('end', () => callback(null, Buffer.concat(chunks)));
}

/** A response body read as bytes (see `binary`) parsed as the envelope. */
function envelopeOf(res: Response): Record<string, unknown> {
  return JSON.parse((res.body as Buffer).toString('utf8')) as Record<string, unknown>;
}

/** Path and query of a signed link (its host is PUBLIC_BASE_URL, not the test server's port). */
const pathOf = (url: string) => {
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
};

/** An asymmetric matcher: any of these values. */
const oneOf = (values: unknown[]) => ({ asymmetricMatch: (v: unknown) => values.includes(v), toAsymmetricMatcher: () => `oneOf(${values.join(', ')})` });

describe('camera-trap images', () => {
  let svc: TestService;
  let db: DataSource;
  let alice: Caller;
  let bob: Caller;
  let carol: Caller;
  let photo: Buffer; // 640×480 JPEG
  let png: Buffer; // 640×480 PNG
  let withExif: Buffer;

  const as = (who: Caller) => tokenClient(svc, who.appToken);

  /** POST /user/device/image/{eui} as `who` (token, or the session cookie, or nothing). */
  const upload = (who: Caller | null, eui: string, file: Buffer | null, name = 'trap.jpg', fields: Fields = {}, via: 'token' | 'cookie' = 'token') => {
    const req = svc.http().post(`/user/device/image/${eui}`);
    if (who) req.set(...(via === 'token' ? bearer(who.appToken) : (['Cookie', who.cookie] as [string, string])));
    for (const [k, v] of Object.entries(fields)) req.field(k, String(v));
    if (file) req.attach('file', file, name);
    else if (Object.keys(fields).length === 0) req.field('vendor_id', 'nothing-else');
    return req;
  };
  const ingest = (credential: [string, string] | null, file: Buffer | null, fields: Fields, name = 'ingest.jpg') => {
    const req = svc.http().post('/ingest/image');
    if (credential) req.set(...credential);
    for (const [k, v] of Object.entries(fields)) req.field(k, String(v));
    if (file) req.attach('file', file, name);
    return req;
  };
  const uploaded = async (who: Caller, eui: string, file: Buffer, name = 'trap.jpg', fields: Fields = {}) =>
    expectSuccess<Detail>(await upload(who, eui, file, name, fields), 201);

  const register = async (who: Caller, eui = newEui()) => {
    const data = expectSuccess<{ uid: number; devEUI: string }>(await as(who).post(`/user/device/${eui}`, {}), 201);
    return { eui: data.devEUI, uid: data.uid };
  };
  const list = async (who: Caller, eui: string) => expectSuccess<Entry[]>(await as(who).get(`/user/device/image/${eui}`));
  const detail = async (who: Caller, eui: string, hash: string) => expectSuccess<Detail>(await as(who).get(`/user/device/image/${eui}/${hash}`));
  /** The detail once the worker is done with the thumbnail (status 4, or 5 when annotated). */
  const ready = async (who: Caller, eui: string, hash: string, status: number[] = [4, 5]) => {
    return eventually(
      async () => {
        const d = await detail(who, eui, hash);
        expect({ status: d.meta.status, hasThumb: d.images.thumb !== null }).toEqual({ status: oneOf(status), hasThumb: true });
        return d;
      },
      { what: `image ${hash} to be processed (status ${status.join(' or ')}, with a thumbnail)`, intervalMs: 100 },
    );
  };
  const annotationsOf = (d: Detail) => JSON.parse(d.meta.annotations) as AnnotationWire[];
  const imageCount = async (deviceUid: number) =>
    ((await db.query('SELECT count(*)::int AS n FROM images WHERE device_id = $1', [deviceUid])) as { n: number }[])[0]!.n;
  const blobCount = async (imageUid: number) =>
    ((await db.query('SELECT count(*)::int AS n FROM image_blobs WHERE image_id = $1', [imageUid])) as { n: number }[])[0]!.n;
  const fetchFile = (path: string) => svc.http().get(path).buffer(true).parse(binary);

  beforeAll(async () => {
    [svc, photo, png, withExif] = await Promise.all([startTestService(), scene(1), scene(2, 'png'), exifPhoto(3)]);
    db = svc.app.get<DataSource>(getDataSourceToken());
    [alice, bob, carol] = await Promise.all([accountWithCredentials(svc, 'alice'), accountWithCredentials(svc, 'bob'), accountWithCredentials(svc, 'carol')]);
  });
  afterAll(() => svc?.close());

  describe('POST /user/device/image/{eui}', () => {
    it('stores a JPEG: 201 with every member of the detail, then the worker makes the thumbnail (status 1 → 4)', async () => {
      const device = await register(alice);
      const before = nowUnix();
      const res = await upload(alice, device.eui.toLowerCase(), photo, 'trap.jpg', {
        ts_photo_unix: 1_700_000_000,
        ts_tx_unix: 1_700_000_060,
        lat: 48.1375,
        lon: 11.575,
        vendor_id: 'IMG_0001',
        filename: 'IMG_0001.JPG',
      });
      const data = expectSuccess<Detail>(res, 201);
      expect(Object.keys(data).sort()).toEqual(['hash', 'images', 'meta']);
      expect(Object.keys(data.meta).sort()).toEqual([...DETAIL_META_MEMBERS].sort());
      expect(Object.keys(data.images)).toEqual(['thumb']);
      expect(data.hash).toMatch(/^[0-9a-f]{32}$/);
      expect(data.meta).toEqual({
        uid: expect.any(Number),
        camera_ref: device.uid,
        ts_photo_unix: 1_700_000_000,
        ts_tx_unix: 1_700_000_060,
        ts_sync_unix: expect.any(Number),
        vendor_id: 'IMG_0001',
        url: expect.stringMatching(new RegExp(`^${svc.config.publicBaseUrl}/files/image/${data.hash}\\?expires=\\d+&signature=[^&]+$`)),
        longitude: 11.575,
        latitude: 48.1375,
        image_details: expect.any(String),
        annotations: '[]',
        prediction: null,
        status: 1,
        deleted: 0,
        filename: 'IMG_0001.JPG',
        hash: data.hash,
        bin_hash: sha256(photo),
      });
      expect(data.meta.ts_sync_unix).toBeGreaterThanOrEqual(before - 1);
      expect(data.meta.ts_sync_unix).toBeLessThanOrEqual(nowUnix() + 1);
      expect(JSON.parse(data.meta.image_details!)).toMatchObject({ size: photo.length, content_type: 'image/jpeg' });
      // The link lives 86,400 s by default.
      const expires = Number(new URL(data.meta.url).searchParams.get('expires'));
      expect(Math.abs(expires - (nowUnix() + 86_400))).toBeLessThanOrEqual(5);
      expect(data.images.thumb).toBeNull();

      const done = await ready(alice, device.eui, data.hash, [4]);
      expect(done.meta).toMatchObject({ status: 4, uid: data.meta.uid, hash: data.hash, bin_hash: sha256(photo) });
      expect(done.images.thumb).toMatch(/^[A-Za-z0-9+/]+={0,2}$/);
      const thumb = Buffer.from(done.images.thumb!, 'base64');
      expect([...thumb.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
      const meta = await sharp(thumb).metadata();
      expect(meta.format).toBe('jpeg');
      expect(Math.max(meta.width!, meta.height!)).toBeLessThanOrEqual(320);
      expect({ width: meta.width, height: meta.height }).toEqual({ width: 320, height: 240 });
      expect(JSON.parse(done.meta.image_details!)).toMatchObject({ width: 640, height: 480, size: photo.length, content_type: 'image/jpeg' });
    });

    it('stores a PNG with a session, its name taken from the file, and makes a JPEG thumbnail', async () => {
      const device = await register(alice);
      const data = expectSuccess<Detail>(await upload(alice, device.eui, png, 'burrow.png', {}, 'cookie'), 201);
      expect(data.meta).toMatchObject({ filename: 'burrow.png', bin_hash: sha256(png), vendor_id: null, latitude: null, longitude: null, status: 1 });
      expect(JSON.parse(data.meta.image_details!)).toMatchObject({ content_type: 'image/png', size: png.length });
      const done = await ready(alice, device.eui, data.hash, [4]);
      const meta = await sharp(Buffer.from(done.images.thumb!, 'base64')).metadata();
      expect({ format: meta.format, width: meta.width, height: meta.height }).toEqual({ format: 'jpeg', width: 320, height: 240 });
      const file = await fetchFile(pathOf(done.meta.url));
      expect(file.status).toBe(200);
      expect(file.headers['content-type']).toMatch(/^image\/png/);
      expect((file.body as Buffer).equals(png)).toBe(true);
    });

    it('answers 200 with the same image for the same bytes on the same device, still one list entry', async () => {
      const device = await register(alice);
      const bytes = await scene(11);
      const first = await uploaded(alice, device.eui, bytes, 'a.jpg', { ts_photo_unix: 1_600_000_000 });
      const again = expectSuccess<Detail>(await upload(alice, device.eui, bytes, 'renamed.jpg', { ts_photo_unix: 1_650_000_000 }), 200);
      expect(again.hash).toBe(first.hash);
      expect(again.meta).toMatchObject({ uid: first.meta.uid, filename: 'a.jpg', ts_photo_unix: 1_600_000_000, bin_hash: sha256(bytes) });
      const entries = await list(alice, device.eui);
      expect(entries.map((e) => e.hash)).toEqual([first.hash]);
      expect(await imageCount(device.uid)).toBe(1);
    });

    it('answers one 201 and 200s for concurrent uploads of the same bytes, storing one image', async () => {
      const device = await register(alice);
      const bytes = await scene(12);
      const answers = await Promise.all(Array.from({ length: 10 }, () => upload(alice, device.eui, bytes, 'burst.jpg')));
      expect(answers.map((r) => r.status).sort()).toEqual([...Array.from({ length: 9 }, () => 200), 201]);
      expect(new Set(answers.map((r) => r.body.data?.hash)).size).toBe(1);
      expect(await list(alice, device.eui)).toHaveLength(1);
    });

    it('gives the same bytes on another device a different hash (and the same bin_hash)', async () => {
      const [one, two] = await Promise.all([register(alice), register(alice)]);
      const bytes = await scene(13);
      const a = await uploaded(alice, one.eui, bytes);
      const b = await uploaded(alice, two.eui, bytes);
      expect(b.hash).toMatch(/^[0-9a-f]{32}$/);
      expect(b.hash).not.toBe(a.hash);
      expect(b.meta.bin_hash).toBe(a.meta.bin_hash);
      expect(b.meta.camera_ref).toBe(two.uid);
      expect((await list(alice, one.eui)).map((e) => e.hash)).toEqual([a.hash]);
      expect((await list(alice, two.eui)).map((e) => e.hash)).toEqual([b.hash]);
    });

    it('answers 415 naming file for bytes that are no JPEG or PNG, whatever their name, storing nothing', async () => {
      const device = await register(alice);
      const noise = randomBytes(4096);
      noise[0] = 0x00;
      expectError(await upload(alice, device.eui, noise, 'photo.jpg'), 415, 'UNSUPPORTED_MEDIA_TYPE', 'file');
      expectError(
        await upload(alice, device.eui, Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1'), 'photo.png'),
        415,
        'UNSUPPORTED_MEDIA_TYPE',
        'file',
      );
      expectError(
        await upload(alice, device.eui, Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), 'photo.jpg'),
        415,
        'UNSUPPORTED_MEDIA_TYPE',
        'file',
      );
      expect(await list(alice, device.eui)).toEqual([]);
      expect(await imageCount(device.uid)).toBe(0);
    });

    it('answers 413 PAYLOAD_TOO_LARGE beyond 20 MiB, storing nothing', async () => {
      const device = await register(alice);
      const big = Buffer.alloc(21 * 1024 * 1024, 0x55);
      photo.copy(big, 0, 0, 64);
      expectError(await upload(alice, device.eui, big, 'huge.jpg'), 413, 'PAYLOAD_TOO_LARGE');
      expect(await list(alice, device.eui)).toEqual([]);
      expect(await imageCount(device.uid)).toBe(0);
    });

    it('marks an image the worker cannot read as failed (status 3) with a reason', async () => {
      const device = await register(alice);
      // JPEG by its first bytes, garbage after them.
      const broken = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), randomBytes(2048)]);
      const data = await uploaded(alice, device.eui, broken, 'broken.jpg');
      const failed = await eventually(
        async () => {
          const d = await detail(alice, device.eui, data.hash);
          expect(d.meta.status).toBe(3);
          return d;
        },
        { what: 'the broken image to be marked failed (status 3)', intervalMs: 100 },
      );
      expect(failed.images.thumb).toBeNull();
      const [row] = (await db.query('SELECT status_reason FROM images WHERE uid = $1', [data.meta.uid])) as [{ status_reason: string | null }];
      expect(row.status_reason).toEqual(expect.stringMatching(/\S/));
      // The owner sees why, in the detail's image_details.
      expect(JSON.parse(failed.meta.image_details!)).toMatchObject({ error: row.status_reason });
    });

    it.each([
      [{ ts_photo_unix: 'yesterday' }, 'ts_photo_unix'],
      [{ ts_photo_unix: '1.5' }, 'ts_photo_unix'],
      [{ ts_photo_unix: '-5' }, 'ts_photo_unix'],
      [{ ts_tx_unix: 'soon' }, 'ts_tx_unix'],
      [{ lat: '91' }, 'lat'],
      [{ lat: 'north' }, 'lat'],
      [{ lon: '-180.5' }, 'lon'],
      [{ vendor_id: 'v'.repeat(101) }, 'vendor_id'],
      [{ filename: 'a/b.jpg' }, 'filename'],
      [{ filename: '..\\..\\boot.ini' }, 'filename'],
      [{ colour: 'red' }, 'colour'],
    ])('refuses the form %j naming %s, storing nothing', async (fields, field) => {
      const device = await register(alice);
      expectError(await upload(alice, device.eui, photo, 'trap.jpg', fields as Fields), 400, 'VALIDATION_FAILED', field);
      expect(await imageCount(device.uid)).toBe(0);
    });

    it('refuses a form without a file, naming file', async () => {
      const device = await register(alice);
      expectError(await upload(alice, device.eui, null, 'x', { vendor_id: 'only-fields' }), 400, 'VALIDATION_FAILED', 'file');
      expect(await imageCount(device.uid)).toBe(0);
    });

    it('refuses a bad EUI (400 naming eui) and a device not on the account (404)', async () => {
      expectError(await upload(alice, 'not-an-eui', photo), 400, 'VALIDATION_FAILED', 'eui');
      expectError(await upload(alice, newEui(), photo), 404, 'NOT_FOUND');
    });
  });

  describe('EXIF', () => {
    it('takes the capture time and GPS position from EXIF when the form is silent', async () => {
      const device = await register(alice);
      const data = await uploaded(alice, device.eui, withExif, 'exif.jpg');
      expect(data.meta).toMatchObject({ ts_photo_unix: EXIF_TIME, ts_tx_unix: EXIF_TIME });
      expect(data.meta.latitude).toBeCloseTo(EXIF_LAT, 6);
      expect(data.meta.longitude).toBeCloseTo(EXIF_LON, 6);
      const [entry] = await list(alice, device.eui);
      expect(entry).toMatchObject({ hash: data.hash, ts_photo_unix: EXIF_TIME });
      expect(entry!.lat).toBeCloseTo(EXIF_LAT, 6);
      expect(entry!.lon).toBeCloseTo(EXIF_LON, 6);
    });

    it('reads the EXIF time at its recorded offset, and as UTC without one, whatever the server’s zone', async () => {
      const offset = await sharp(await scene(15))
        .jpeg()
        .withExif({ IFD2: { DateTimeOriginal: '2024:03:05 06:07:08', OffsetTimeOriginal: '+02:00' } })
        .toBuffer();
      const zone = process.env.TZ;
      // The service runs in this process: a zone far from UTC shows any reading in local time.
      process.env.TZ = 'America/Los_Angeles';
      try {
        const device = await register(alice);
        expect((await uploaded(alice, device.eui, offset, 'offset.jpg')).meta.ts_photo_unix).toBe(EXIF_TIME - 2 * 3600);
        expect((await uploaded(alice, device.eui, withExif, 'exif.jpg')).meta.ts_photo_unix).toBe(EXIF_TIME);
      } finally {
        if (zone === undefined) delete process.env.TZ;
        else process.env.TZ = zone;
      }
    });

    it('lets form values win over EXIF, member by member', async () => {
      const [full, partial] = await Promise.all([register(alice), register(alice)]);
      const all = await uploaded(alice, full.eui, withExif, 'exif.jpg', { ts_photo_unix: 1_711_000_000, lat: -33.9, lon: 18.4 });
      expect(all.meta).toMatchObject({ ts_photo_unix: 1_711_000_000, ts_tx_unix: 1_711_000_000, latitude: -33.9, longitude: 18.4 });
      const some = await uploaded(alice, partial.eui, withExif, 'exif.jpg', { lat: 10.5 });
      expect(some.meta).toMatchObject({ ts_photo_unix: EXIF_TIME, latitude: 10.5 });
      expect(some.meta.longitude).toBeCloseTo(EXIF_LON, 6);
    });

    it('uses the upload time when neither the form nor EXIF gives one', async () => {
      const device = await register(alice);
      const before = nowUnix();
      const data = await uploaded(alice, device.eui, await scene(14), 'plain.jpg');
      expect(data.meta.ts_photo_unix).toBeGreaterThanOrEqual(before - 1);
      expect(data.meta.ts_photo_unix).toBeLessThanOrEqual(nowUnix() + 1);
      expect(data.meta).toMatchObject({ latitude: null, longitude: null });
    });
  });

  describe('POST /ingest/image', () => {
    it('takes the platform secret (X-Ingest-Secret or a token header) and devEUI in any accepted form', async () => {
      const device = await register(alice);
      const bytes = await scene(20);
      const res = await ingest(secretHeader, bytes, {
        devEUI: device.eui.toLowerCase().match(/../g)!.join('-'),
        ts_photo_unix: 1_690_000_000,
        vendor_id: 'cam-7',
      });
      const data = expectSuccess<Detail>(res, 201);
      expect(data.meta).toMatchObject({
        camera_ref: device.uid,
        ts_photo_unix: 1_690_000_000,
        vendor_id: 'cam-7',
        filename: 'ingest.jpg',
        bin_hash: sha256(bytes),
        status: 1,
      });
      expect(data.meta).not.toHaveProperty('devEUI');
      expect((await list(alice, device.eui)).map((e) => e.hash)).toEqual([data.hash]);
      // The same bytes again through ingest: the same image.
      expect(expectSuccess<Detail>(await ingest(bearer(TEST_SECRETS.INGEST_SECRET), bytes, { devEUI: device.eui }), 200).hash).toBe(data.hash);
      const other = expectSuccess<Detail>(await ingest(['token', TEST_SECRETS.INGEST_SECRET], await scene(21), { devEUI: device.eui }), 201);
      expect((await list(alice, device.eui)).map((e) => e.hash).sort()).toEqual([data.hash, other.hash].sort());
      await ready(alice, device.eui, data.hash, [4]);
    });

    it('takes an API token of the device owner', async () => {
      const device = await register(alice);
      const bytes = await scene(22);
      const data = expectSuccess<Detail>(await ingest(bearer(alice.appToken), bytes, { devEUI: device.eui, lat: 1.5, lon: 2.5 }), 201);
      expect(data.meta).toMatchObject({ camera_ref: device.uid, latitude: 1.5, longitude: 2.5 });
      expect(expectSuccess<Detail>(await upload(alice, device.eui, bytes), 200).hash).toBe(data.hash);
    });

    it('refuses a missing or bad devEUI naming devEUI', async () => {
      expectError(await ingest(secretHeader, photo, {}), 400, 'VALIDATION_FAILED', 'devEUI');
      expectError(await ingest(secretHeader, photo, { devEUI: 'xyz' }), 400, 'VALIDATION_FAILED', 'devEUI');
      expectError(await ingest(secretHeader, photo, { devEUI: '70B3D57ED00012' }), 400, 'VALIDATION_FAILED', 'devEUI');
    });

    it('answers 404 for another account’s device with a token and for an unknown device with the secret, storing nothing', async () => {
      const device = await register(alice);
      expectError(await ingest(bearer(bob.appToken), photo, { devEUI: device.eui }), 404, 'NOT_FOUND');
      expectError(await ingest(secretHeader, photo, { devEUI: newEui() }), 404, 'NOT_FOUND');
      expect(await imageCount(device.uid)).toBe(0);
    });

    it('checks the file by its bytes and the form like the user route', async () => {
      const device = await register(alice);
      const noise = randomBytes(1024);
      noise[0] = 0x01;
      expectError(await ingest(secretHeader, noise, { devEUI: device.eui }, 'photo.jpg'), 415, 'UNSUPPORTED_MEDIA_TYPE', 'file');
      expectError(await ingest(secretHeader, photo, { devEUI: device.eui, lat: 91 }), 400, 'VALIDATION_FAILED', 'lat');
      expectError(await ingest(secretHeader, photo, { devEUI: device.eui, colour: 'red' }), 400, 'VALIDATION_FAILED', 'colour');
      expectError(await ingest(secretHeader, null, { devEUI: device.eui }), 400, 'VALIDATION_FAILED', 'file');
      expect(await imageCount(device.uid)).toBe(0);
    });

    it('needs ingest credentials', async () => {
      const device = await register(alice);
      expectError(await ingest(null, photo, { devEUI: device.eui }), 401, 'AUTH_REQUIRED');
      expectError(await ingest(['X-Ingest-Secret', 'wrong-secret'], photo, { devEUI: device.eui }), 401, 'INVALID_TOKEN');
      expect(await imageCount(device.uid)).toBe(0);
    });
  });

  describe('GET /user/device/image/{eui}', () => {
    it('lists the device’s images newest photo first, with every list member', async () => {
      const device = await register(alice);
      const middle = await uploaded(alice, device.eui, await scene(30), 'b.jpg', { ts_photo_unix: 2_000, lat: 1, lon: 2 });
      const newest = await uploaded(alice, device.eui, await scene(31), 'c.jpg', { ts_photo_unix: 3_000 });
      const oldest = await uploaded(alice, device.eui, await scene(32), 'a.jpg', { ts_photo_unix: 1_000, ts_tx_unix: 1_100 });
      const entries = await list(alice, device.eui);
      expect(entries.map((e) => e.hash)).toEqual([newest.hash, middle.hash, oldest.hash]);
      for (const e of entries) expect(Object.keys(e).sort()).toEqual([...LIST_MEMBERS].sort());
      expect(entries[1]).toEqual({
        hash: middle.hash,
        ts_photo_unix: 2_000,
        ts_tx_unix: 2_000,
        ts_sync_unix: middle.meta.ts_sync_unix,
        lat: 1,
        lon: 2,
        annotations: [],
        prediction: null,
        status: oneOf([1, 2, 4]),
        filename: 'b.jpg',
      });
      expect(entries[2]).toMatchObject({ ts_photo_unix: 1_000, ts_tx_unix: 1_100, lat: null, lon: null, filename: 'a.jpg' });
      expect((await list(alice, device.eui.toLowerCase())).map((e) => e.hash)).toEqual(entries.map((e) => e.hash));
    });

    it('is empty for a device without images; 400 for a bad EUI; 404 for a device not on the account', async () => {
      const device = await register(alice);
      expect(await list(alice, device.eui)).toEqual([]);
      expectError(await as(alice).get('/user/device/image/zz'), 400, 'VALIDATION_FAILED', 'eui');
      expectError(await as(alice).get(`/user/device/image/${newEui()}`), 404, 'NOT_FOUND');
    });
  });

  describe('the gallery: GET /user/image', () => {
    const ROE = { id: 'r1', class: 'mammalia', order: 'artiodactyla', family: 'cervidae', genus: 'capreolus', species: 'capreolus' };
    const FOX = { id: 'f1', class: 'mammalia', order: 'carnivora', family: 'canidae', genus: 'vulpes', species: 'vulpes' };
    let dave: Caller;
    let own: string;
    let sharedEui: string;
    const hashes: Record<string, string> = {};
    const gallery = async (who: Caller, query: string) => {
      const res = await as(who).get(`/user/image${query}`);
      const data = expectSuccess<(Entry & { devEUI: string })[]>(res);
      return { data, meta: res.body.meta as { next_cursor: string | null } };
    };

    beforeAll(async () => {
      dave = await accountWithCredentials(svc, 'dave');
      own = (await register(dave)).eui;
      // A camera of bob's shared with dave: its photos are dave's to see too.
      sharedEui = (await register(bob)).eui;
      expectSuccess(await as(bob).post(`/user/device/share/${sharedEui}`, { username: dave.account.username }), 201);
      hashes.deer = (await uploaded(dave, own, await scene(70), 'deer.jpg', { ts_photo_unix: 10_000 })).hash;
      hashes.fox = (await uploaded(dave, own, await scene(71), 'fox.jpg', { ts_photo_unix: 20_000 })).hash;
      hashes.blank = (await uploaded(dave, own, await scene(72), 'blank.jpg', { ts_photo_unix: 30_000 })).hash;
      hashes.shared = (await uploaded(bob, sharedEui, await scene(73), 'shared.jpg', { ts_photo_unix: 25_000 })).hash;
      hashes.bobs = (await uploaded(bob, (await register(bob)).eui, await scene(74), 'bobs.jpg', { ts_photo_unix: 26_000 })).hash;
      expectSuccess(
        await as(dave).post(`/user/device/image/${own}/${hashes.deer}/annotations`, [
          { bbox: [0.1, 0.1, 0.3, 0.3], score: 0.92, label: 'roe deer', taxonomy: ROE },
          { bbox: [0.5, 0.5, 0.2, 0.2], score: 0.2, label: 'fox', taxonomy: FOX },
        ]),
      );
      expectSuccess(
        await as(dave).post(`/user/device/image/${own}/${hashes.fox}/annotations`, [
          { bbox: [0.2, 0.2, 0.4, 0.4], score: 0.81, label: 'red fox', taxonomy: FOX },
        ]),
      );
      expectSuccess(
        await as(dave).post(`/user/device/image/${own}/${hashes.blank}/annotations`, { annotations: [], prediction: { label: 'blank', score: 0.97 } }),
      );
    });

    it('shows the photos of every camera the account reaches, newest first, naming the camera; none of another account', async () => {
      const { data, meta } = await gallery(dave, '');
      expect(data.map((e) => e.hash)).toEqual([hashes.blank, hashes.shared, hashes.fox, hashes.deer]);
      expect(data.map((e) => e.devEUI)).toEqual([own, sharedEui, own, own]);
      expect(meta).toEqual({ next_cursor: null });
      expect(Object.keys(data[0]!).sort()).toEqual([...LIST_MEMBERS, 'devEUI'].sort());
      expect(data[3]).toMatchObject({ filename: 'deer.jpg', ts_photo_unix: 10_000, status: oneOf([1, 2, 4, 5]) });
      expect((await gallery(alice, '')).data.map((e) => e.hash)).not.toEqual(expect.arrayContaining([hashes.deer]));
    });

    it('pages with next_cursor, without repeating or losing an entry', async () => {
      const first = await gallery(dave, '?limit=3');
      expect(first.data).toHaveLength(3);
      expect(first.meta.next_cursor).toEqual(expect.any(String));
      const second = await gallery(dave, `?limit=3&cursor=${first.meta.next_cursor}`);
      expect([...first.data, ...second.data].map((e) => e.hash)).toEqual([hashes.blank, hashes.shared, hashes.fox, hashes.deer]);
      expect(second.meta.next_cursor).toBeNull();
    });

    it.each<[string, string, string[]]>([
      ['one camera', `?eui=${'{own}'}`, ['blank', 'fox', 'deer']],
      ['a label, any case', '?label=FOX', ['fox', 'deer']],
      ['a label and a score, on the same detection', '?label=fox&min_score=0.5', ['fox']],
      ['a score alone (boxes and predictions)', '?min_score=0.9', ['blank', 'deer']],
      ['a taxonomy level', '?species=cervidae', ['deer']],
      ['a species with a score', '?species=vulpes&min_score=0.9', []],
      ['the blank prediction', '?label=blank', ['blank']],
      ['a time range, inclusive', '?from=20000&to=25000', ['shared', 'fox']],
      ['a label that LIKE would take as a wildcard', '?label=%25', []],
    ])('filters by %s', async (_what, query, names) => {
      const { data } = await gallery(dave, query.replace('{own}', own));
      expect(data.map((e) => e.hash)).toEqual(names.map((n) => hashes[n]));
    });

    it.each<[string, string]>([
      ['?min_score=1.5', 'min_score'],
      ['?min_score=x', 'min_score'],
      ['?limit=0', 'limit'],
      ['?limit=201', 'limit'],
      ['?from=-1', 'from'],
      ['?cursor=bm90IGEgY3Vyc29y', 'cursor'],
      ['?cursor=a.b', 'cursor'],
      ['?eui=zz', 'eui'],
      ['?label=' + 'x'.repeat(101), 'label'],
      ['?colour=red', 'colour'],
    ])('refuses %s with 400 naming %s', async (query, field) => {
      expectError(await as(dave).get(`/user/image${query}`), 400, 'VALIDATION_FAILED', field);
    });

    it('is 404 for a camera not on the account and 401 without credentials', async () => {
      expectError(await as(alice).get(`/user/image?eui=${own}`), 404, 'NOT_FOUND');
      expectError(await svc.http().get('/user/image'), 401, 'AUTH_REQUIRED');
    });

    // Last in this block: it annotates the shared and bob's photos, which the filters above do not expect.
    describe('GET /user/image/labels', () => {
      const labels = async (who: Caller, q = '') =>
        expectSuccess<{ label: string; taxonomy: unknown; count: number }[]>(await as(who).get(`/user/image/labels${q}`));

      beforeAll(async () => {
        expectSuccess(
          await as(bob).post(`/user/device/image/${sharedEui}/${hashes.shared}/annotations`, [
            { bbox: [0.1, 0.1, 0.2, 0.2], score: 0.4, label: 'fox' },
            { bbox: [0.4, 0.4, 0.2, 0.2], score: 0.3, label: 'hedgehog', source: 'person' },
          ]),
        );
      });

      it('counts the labels of boxes and predictions on every camera the account reaches, the most used first, each with its usual taxonomy', async () => {
        const bobs = expectSuccess<(Entry & { devEUI: string })[]>(await as(bob).get('/user/image')).find((i) => i.hash === hashes.bobs)!;
        expectSuccess(
          await as(bob).post(`/user/device/image/${bobs.devEUI}/${hashes.bobs}/annotations`, [{ bbox: [0, 0, 0.5, 0.5], score: 0.9, label: 'badger' }]),
        );
        expect(await labels(dave)).toEqual([
          // Given once with its taxonomy and once without: the taxonomy is what it is known by.
          { label: 'fox', taxonomy: FOX, count: 2 },
          { label: 'blank', taxonomy: null, count: 1 },
          { label: 'hedgehog', taxonomy: null, count: 1 },
          { label: 'red fox', taxonomy: FOX, count: 1 },
          { label: 'roe deer', taxonomy: ROE, count: 1 },
        ]);
        expect((await labels(dave, '?limit=2')).map((l) => l.label)).toEqual(['fox', 'blank']);
        // Bob's own camera is not dave's: its badger is bob's alone; the shared camera is bob's too.
        expect((await labels(bob)).map((l) => l.label)).toEqual(['badger', 'fox', 'hedgehog']);
        expect(await labels(alice)).not.toEqual(expect.arrayContaining([expect.objectContaining({ label: 'badger' })]));
      });

      it('leaves out the labels of a deleted photo', async () => {
        const before = await labels(bob);
        const bobs = expectSuccess<(Entry & { devEUI: string })[]>(await as(bob).get('/user/image')).find((i) => i.hash === hashes.bobs)!;
        expectSuccess(await as(bob).delete(`/user/device/image/${bobs.devEUI}/${hashes.bobs}`));
        expect(await labels(bob)).toEqual(before.filter((l) => l.label !== 'badger'));
      });

      it.each<[string, string]>([
        ['?limit=0', 'limit'],
        ['?limit=1001', 'limit'],
        ['?limit=x', 'limit'],
        ['?colour=red', 'colour'],
      ])('refuses %s with 400 naming %s', async (query, field) => {
        expectError(await as(dave).get(`/user/image/labels${query}`), 400, 'VALIDATION_FAILED', field);
      });

      it('is 401 without credentials', async () => {
        expectError(await svc.http().get('/user/image/labels'), 401, 'AUTH_REQUIRED');
      });
    });
  });

  describe('thumbnails: GET /user/device/image/{eui}/{hash}/thumb', () => {
    it('serves the JPEG thumbnail once made, with an ETag (304 when unchanged), to whoever may see the image', async () => {
      const device = await register(alice);
      const { hash } = await uploaded(alice, device.eui, await scene(80));
      await ready(alice, device.eui, hash);
      const res = await as(alice).get(`/user/device/image/${device.eui}/${hash}/thumb`).buffer(true).parse(binary);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('image/jpeg');
      const meta = await sharp(res.body as Buffer).metadata();
      expect({ format: meta.format, width: meta.width, height: meta.height }).toEqual({ format: 'jpeg', width: 320, height: 240 });
      const again = await as(alice).get(`/user/device/image/${device.eui}/${hash}/thumb`).set('If-None-Match', res.headers.etag!);
      expect(again.status).toBe(304);
      // The session cookie opens it too (an <img> of the console).
      expect((await svc.http().get(`/user/device/image/${device.eui}/${hash}/thumb`).set('Cookie', alice.cookie)).status).toBe(200);
    });

    it('is 404 before the thumbnail exists and for another account, 400 for a bad hash, 401 without credentials', async () => {
      const device = await register(alice);
      const { hash } = await uploaded(alice, device.eui, await scene(81));
      // Marked as not yet processed, whatever the worker did meanwhile.
      await db.query(`UPDATE images SET thumb = NULL, status = 1 WHERE hash = $1 AND deleted = 0`, [hash]);
      expectError(await as(alice).get(`/user/device/image/${device.eui}/${hash}/thumb`), 404, 'NOT_FOUND', 'image_hash');
      expectError(await as(bob).get(`/user/device/image/${device.eui}/${hash}/thumb`), 404, 'NOT_FOUND');
      expectError(await as(alice).get(`/user/device/image/${device.eui}/xyz/thumb`), 400, 'VALIDATION_FAILED', 'image_hash');
      expectError(await svc.http().get(`/user/device/image/${device.eui}/${hash}/thumb`), 401, 'AUTH_REQUIRED');
    });
  });

  describe('image events on the live feeds', () => {
    it('tells the account’s feed when a photo is stored, processed, annotated and deleted, and another account’s nothing', async () => {
      const device = await register(alice);
      // A notice is written as the photo is when the feed reads it: each step waits for the event of
      // the one before, or two could be told as the later one. The opening comment comes once the
      // feed has joined the device's hub.
      const follow = async (who: Caller) => {
        const feed = await SseClient.open(`${svc.url}/user/live`, { Authorization: `Bearer ${who.appToken}` });
        await untilSeen(() => feed.comments.length > 0, 'the opening comment');
        return feed;
      };
      const mine = await follow(alice);
      const theirs = await follow(bob);
      try {
        const { hash } = await uploaded(alice, device.eui, await scene(82), 'live.jpg');
        type Told = Entry & { devEUI: string; deleted: boolean };
        const told = (e: LiveEvent): Told | null => (e.event === 'image' && e.data.hash === hash ? (e.data as Told) : null);
        // Told as stored (1), or as the worker has it by then (2, 4) when it was quicker than the feed.
        await mine.waitFor((e) => told(e) !== null, 'the stored photo');
        await ready(alice, device.eui, hash);
        await mine.waitFor((e) => told(e)?.status === 4, 'the processed photo');
        expectSuccess(await as(alice).post(`/user/device/image/${device.eui}/${hash}/annotations`, [{ bbox: [0, 0, 0.5, 0.5], score: 0.7, label: 'badger' }]));
        await mine.waitFor((e) => told(e)?.status === 5, 'the annotated photo');
        expectSuccess(await as(alice).delete(`/user/device/image/${device.eui}/${hash}`));
        await mine.waitFor((e) => told(e)?.deleted === true, 'the deleted photo');
        // The account's feed also tells of photos of earlier tests that the worker is still processing: this one's events only.
        const seen = mine.events.map(told).filter((i) => i !== null);
        expect(seen.every((i) => i.devEUI === device.eui && i.filename === 'live.jpg')).toBe(true);
        expect(seen[0]).toMatchObject({ status: oneOf([1, 2, 4]), deleted: false });
        expect(seen.find((i) => i.status === 4)).toMatchObject({ deleted: false });
        expect(seen.find((i) => i.status === 5)).toMatchObject({ deleted: false, annotations: [expect.objectContaining({ label: 'badger' })] });
        expect(seen.at(-1)).toMatchObject({ deleted: true });
        expect(theirs.events.filter(told)).toEqual([]);
      } finally {
        mine.close();
        theirs.close();
      }
    });
  });

  describe('annotations', () => {
    const TAXONOMY = { id: 'a1b2', class: 'mammalia', order: 'artiodactyla', family: 'cervidae', genus: 'capreolus', species: 'capreolus' };

    it('takes our own list [{bbox, score, label, taxonomy?}], answers 200 with the detail, status 5', async () => {
      const device = await register(alice);
      const img = await uploaded(alice, device.eui, await scene(40));
      await ready(alice, device.eui, img.hash, [4]);
      const body = [
        { bbox: [0.1, 0.2, 0.3, 0.4], score: 0.91, label: 'roe deer', taxonomy: TAXONOMY },
        { bbox: [0, 0, 1, 1], score: 0, label: 'fox' },
      ];
      const data = expectSuccess<Detail>(await as(alice).post(`/user/device/image/${device.eui}/${img.hash}/annotations`, body), 200);
      expect(Object.keys(data.meta).sort()).toEqual([...DETAIL_META_MEMBERS].sort());
      expect(typeof data.meta.annotations).toBe('string');
      const expected = [
        { id: 1, bbox: [0.1, 0.2, 0.3, 0.4], score: 0.91, label: 'roe deer', taxonomy: TAXONOMY, source: null },
        { id: 2, bbox: [0, 0, 1, 1], score: 0, label: 'fox', taxonomy: null, source: null },
      ];
      expect(annotationsOf(data)).toEqual(expected);
      expect(data.meta.status).toBe(5);
      expect(data.images.thumb).toEqual(expect.any(String));
      const again = await detail(alice, device.eui, img.hash);
      expect(again.meta.status).toBe(5);
      expect(annotationsOf(again)).toEqual(expected);
      const [entry] = await list(alice, device.eui);
      expect(entry).toMatchObject({ hash: img.hash, status: 5, annotations: expected });
    });

    it('converts MegaDetector batch output, picking the entry of the image’s file', async () => {
      const device = await register(alice);
      const img = await uploaded(alice, device.eui, await scene(41), 'upload.jpg', { filename: 'IMG_0002.JPG' });
      await ready(alice, device.eui, img.hash, [4]);
      const body = {
        info: { detector: 'md_v5a.0.0.pt', format_version: '1.3' },
        detection_categories: { '1': 'animal', '2': 'person', '3': 'vehicle' },
        images: [
          { file: 'cam1/IMG_0001.JPG', detections: [{ category: '2', conf: 0.7, bbox: [0, 0, 0.5, 0.5] }] },
          {
            file: 'cam1/IMG_0002.JPG',
            detections: [
              { category: '1', conf: 0.95, bbox: [0.25, 0.1, 0.5, 0.6] },
              { category: '2', conf: 0.42, bbox: [0.6, 0.6, 0.2, 0.3] },
            ],
          },
        ],
      };
      const data = expectSuccess<Detail>(await as(alice).post(`/user/device/image/${device.eui}/${img.hash}/annotations`, body), 200);
      expect(annotationsOf(data)).toEqual([
        { id: 1, bbox: [0.25, 0.1, 0.5, 0.6], score: 0.95, label: 'animal', taxonomy: null, source: 'MegaDetector (md_v5a.0.0.pt)' },
        { id: 2, bbox: [0.6, 0.6, 0.2, 0.3], score: 0.42, label: 'person', taxonomy: null, source: 'MegaDetector (md_v5a.0.0.pt)' },
      ]);
      expect(data.meta.status).toBe(5);
    });

    it('converts SpeciesNet predictions into labelled boxes with taxonomy', async () => {
      const device = await register(alice);
      const img = await uploaded(alice, device.eui, await scene(42), 'IMG_0003.JPG');
      await ready(alice, device.eui, img.hash, [4]);
      const body = {
        predictions: [
          {
            filepath: '/data/cam2/IMG_0003.JPG',
            detections: [
              { category: '1', label: 'animal', conf: 0.93, bbox: [0.2, 0.3, 0.4, 0.5] },
              { category: '2', label: 'human', conf: 0.6, bbox: [0.7, 0.1, 0.2, 0.3] },
            ],
            prediction: 'b2c3;mammalia;carnivora;felidae;lynx;rufus;bobcat',
            prediction_score: 0.88,
            prediction_source: 'classifier',
          },
        ],
      };
      const data = expectSuccess<Detail>(await as(alice).post(`/user/device/image/${device.eui}/${img.hash}/annotations`, body), 200);
      expect(annotationsOf(data)).toEqual([
        {
          id: 1,
          bbox: [0.2, 0.3, 0.4, 0.5],
          score: 0.93,
          label: 'bobcat',
          taxonomy: { id: 'b2c3', class: 'mammalia', order: 'carnivora', family: 'felidae', genus: 'lynx', species: 'rufus' },
          source: 'SpeciesNet',
        },
        { id: 2, bbox: [0.7, 0.1, 0.2, 0.3], score: 0.6, label: 'human', taxonomy: null, source: 'SpeciesNet' },
      ]);
      expect(data.meta.status).toBe(5);
      expect((await list(alice, device.eui))[0]!.status).toBe(5);
    });

    it('keeps SpeciesNet’s image-level prediction of a real photo (classifier only, no boxes): detail and list show it, status 5', async () => {
      const device = await register(alice);
      const photo = readFileSync(join(CAMERA_TRAPS, 'photos/african_elephants.jpg'));
      const img = await uploaded(alice, device.eui, photo, 'african_elephants.jpg');
      await ready(alice, device.eui, img.hash, [4]);
      const body = JSON.parse(readFileSync(join(CAMERA_TRAPS, 'speciesnet/classifier-only.predictions.json'), 'utf8')) as unknown;
      const data = expectSuccess<Detail>(await as(alice).post(`/user/device/image/${device.eui}/${img.hash}/annotations`, body as object), 200);
      const prediction = {
        label: 'african elephant',
        score: expect.closeTo(0.3487, 4),
        taxonomy: {
          id: '55631055-3e0e-4b7a-9612-dedebe9f78b0',
          class: 'mammalia',
          order: 'proboscidea',
          family: 'elephantidae',
          genus: 'loxodonta',
          species: 'africana',
        },
        source: 'classifier',
      };
      expect(data.meta).toMatchObject({ annotations: '[]', prediction, status: 5 });
      expect((await list(alice, device.eui))[0]).toMatchObject({ hash: img.hash, annotations: [], prediction, status: 5 });
      // Boxes sent later in our list form replace both: the prediction goes with them.
      const boxesOnly = expectSuccess<Detail>(
        await as(alice).post(`/user/device/image/${device.eui}/${img.hash}/annotations`, [{ bbox: [0.1, 0.1, 0.2, 0.2], score: 0.9, label: 'elephant' }]),
        200,
      );
      expect(boxesOnly.meta).toMatchObject({ prediction: null, status: 5 });
      // Nothing at all: ready again.
      const cleared = expectSuccess<Detail>(await as(alice).post(`/user/device/image/${device.eui}/${img.hash}/annotations`, []), 200);
      expect(cleared.meta).toMatchObject({ annotations: '[]', prediction: null, status: 4 });
    });

    it('takes MegaDetector boxes rounded past the image edge (x + w = 1.0001), clamped onto it', async () => {
      const device = await register(alice);
      const img = await uploaded(alice, device.eui, await scene(44), 'edge.jpg');
      await ready(alice, device.eui, img.hash, [4]);
      const body = { images: [{ file: 'cam/edge.jpg', detections: [{ category: '1', conf: 0.91, bbox: [0.9419, 0.4674, 0.0582, 0.1673] }] }] };
      const data = expectSuccess<Detail>(await as(alice).post(`/user/device/image/${device.eui}/${img.hash}/annotations`, body), 200);
      const [box] = annotationsOf(data);
      expect(box!.bbox[0] + box!.bbox[2]).toBeCloseTo(1, 10);
      expect(box!.bbox[0] + box!.bbox[2]).toBeLessThanOrEqual(1);
    });

    it('ends at status 5 when the annotations arrive before the thumbnail', async () => {
      const device = await register(alice);
      const img = await uploaded(alice, device.eui, await scene(43));
      expectSuccess<Detail>(
        await as(alice).post(`/user/device/image/${device.eui}/${img.hash}/annotations`, [{ bbox: [0.1, 0.1, 0.2, 0.2], score: 0.5, label: 'badger' }]),
        200,
      );
      const done = await ready(alice, device.eui, img.hash, [5]);
      expect(annotationsOf(done)).toEqual([{ id: 1, bbox: [0.1, 0.1, 0.2, 0.2], score: 0.5, label: 'badger', taxonomy: null, source: null }]);
    });

    // One camera for the two tests of `source`: the account's device limit is counted across the file.
    let sourced: { eui: string; uid: number } | undefined;
    const sourcedCamera = async () => (sourced ??= await register(alice));

    it('keeps who made each box and the prediction (source): a person’s next to a detector’s, in the detail, the list and the gallery', async () => {
      const device = await sourcedCamera();
      const img = await uploaded(alice, device.eui, await scene(45), 'mixed.jpg');
      await ready(alice, device.eui, img.hash, [4]);
      const body = {
        annotations: [
          { bbox: [0.1, 0.2, 0.3, 0.4], score: 1, label: 'roe deer', taxonomy: TAXONOMY, source: 'person' },
          { bbox: [0.5, 0.5, 0.25, 0.25], score: 0.81, label: 'animal', source: 'MegaDetector (md_v5a.0.0.pt)' },
        ],
        prediction: { label: 'roe deer', score: 1, taxonomy: TAXONOMY, source: 'person' },
      };
      const data = expectSuccess<Detail>(await as(alice).post(`/user/device/image/${device.eui}/${img.hash}/annotations`, body), 200);
      const expected = [
        { id: 1, bbox: [0.1, 0.2, 0.3, 0.4], score: 1, label: 'roe deer', taxonomy: TAXONOMY, source: 'person' },
        { id: 2, bbox: [0.5, 0.5, 0.25, 0.25], score: 0.81, label: 'animal', taxonomy: null, source: 'MegaDetector (md_v5a.0.0.pt)' },
      ];
      expect(annotationsOf(data)).toEqual(expected);
      expect(data.meta.prediction).toEqual({ label: 'roe deer', score: 1, taxonomy: TAXONOMY, source: 'person' });
      expect(annotationsOf(await detail(alice, device.eui, img.hash))).toEqual(expected);
      expect((await list(alice, device.eui))[0]!.annotations).toEqual(expected);
      const found = expectSuccess<(Entry & { devEUI: string })[]>(await as(alice).get(`/user/image?eui=${device.eui}&label=roe`));
      expect(found.map((i) => i.annotations)).toEqual([expected]);
    });

    it('shows annotations stored before `source` existed with source null', async () => {
      const device = await sourcedCamera();
      const img = await uploaded(alice, device.eui, await scene(46), 'older.jpg');
      await ready(alice, device.eui, img.hash, [4]);
      const old = [{ id: 1, bbox: [0.1, 0.1, 0.2, 0.2], score: 0.7, label: 'hare', taxonomy: null }];
      await db.query(`UPDATE images SET annotations = $2::jsonb, status = 5 WHERE hash = $1 AND deleted = 0`, [img.hash, JSON.stringify(old)]);
      expect(annotationsOf(await detail(alice, device.eui, img.hash))).toEqual([{ ...old[0], source: null }]);
      const entry = (await list(alice, device.eui)).find((i) => i.hash === img.hash);
      expect(entry!.annotations).toEqual([{ ...old[0], source: null }]);
    });

    describe('validation', () => {
      let eui: string;
      let hash: string;
      const kept = [{ id: 1, bbox: [0.1, 0.1, 0.2, 0.2], score: 0.5, label: 'hare', taxonomy: null, source: null }];

      beforeAll(async () => {
        const device = await register(alice);
        eui = device.eui;
        const img = await uploaded(alice, eui, await scene(44), 'val.jpg');
        hash = img.hash;
        await ready(alice, eui, hash, [4]);
        expectSuccess(await as(alice).post(`/user/device/image/${eui}/${hash}/annotations`, [{ bbox: [0.1, 0.1, 0.2, 0.2], score: 0.5, label: 'hare' }]), 200);
      });

      it.each([
        [[{ bbox: [0.5, 0.5, 0.6, 0.1], score: 0.5, label: 'x' }], '[0].bbox'],
        [[{ bbox: [-0.1, 0, 0.5, 0.5], score: 0.5, label: 'x' }], '[0].bbox'],
        [[{ bbox: [0, 0, 1.5, 0.5], score: 0.5, label: 'x' }], '[0].bbox'],
        [[{ bbox: [0, 0, 1], score: 0.5, label: 'x' }], '[0].bbox'],
        [[{ bbox: ['0', 0, 1, 1], score: 0.5, label: 'x' }], '[0].bbox'],
        [[{ bbox: [0, 0, 1, 1], score: 2, label: 'x' }], '[0].score'],
        [[{ bbox: [0, 0, 1, 1], score: -0.1, label: 'x' }], '[0].score'],
        [[{ bbox: [0, 0, 1, 1], label: 'x' }], '[0].score'],
        [[{ bbox: [0, 0, 1, 1], score: 0.5, label: '' }], '[0].label'],
        [[{ bbox: [0, 0, 1, 1], score: 0.5 }], '[0].label'],
        [
          [
            { bbox: [0, 0, 0.5, 0.5], score: 0.5, label: 'ok' },
            { bbox: [0, 0, 1, 1], score: 0.5, label: 'x', colour: 'red' },
          ],
          '[1].colour',
        ],
        [[{ bbox: [0, 0, 1, 1], score: 0.5, label: 'x', taxonomy: { kingdom: 'animalia' } }], '[0].taxonomy.kingdom'],
        [[{ bbox: [0, 0, 1, 1], score: 0.5, label: 'x', source: '' }], '[0].source'],
        [{ annotations: [{ bbox: [0, 0, 1, 1], score: 0.5, label: 'x', source: ['person'] }] }, 'annotations[0].source'],
        [{ annotations: [], prediction: { label: 'x', score: 1, source: 5 } }, 'prediction.source'],
        [{ images: [{ file: 'val.jpg', detections: [{ category: '1', conf: 2, bbox: [0, 0, 1, 1] }] }] }, 'images.detections[0].conf'],
        [{ images: [{ file: 'val.jpg', detections: [{ category: '1', conf: 0.5, bbox: [0, 0, 2, 1] }] }] }, 'images.detections[0].bbox'],
        [
          {
            images: [
              { file: 'a.jpg', detections: [] },
              { file: 'b.jpg', detections: [] },
            ],
          },
          'images',
        ],
        [{ predictions: [{ filepath: 'val.jpg', detections: [{ label: 'animal', conf: 1.5, bbox: [0, 0, 1, 1] }] }] }, 'predictions.detections[0].conf'],
        [{ something: 1 }, 'body'],
      ])('refuses %j naming %s, keeping the annotations', async (body, field) => {
        expectError(await as(alice).post(`/user/device/image/${eui}/${hash}/annotations`, body), 400, 'VALIDATION_FAILED', field);
        const d = await detail(alice, eui, hash);
        expect(annotationsOf(d)).toEqual(kept);
        expect(d.meta.status).toBe(5);
      });

      it('refuses malformed JSON', async () => {
        const res = await svc
          .http()
          .post(`/user/device/image/${eui}/${hash}/annotations`)
          .set(...bearer(alice.appToken))
          .set('Content-Type', 'application/json')
          .send('[{"bbox": [0,0,1,1],');
        expectError(res, 400, 'MALFORMED_JSON');
        expect(annotationsOf(await detail(alice, eui, hash))).toEqual(kept);
      });
    });
  });

  describe('signed links: GET /files/image/{hash}', () => {
    let eui: string;
    let img: Detail;
    let other: Detail;
    let link: string;

    beforeAll(async () => {
      eui = (await register(alice)).eui;
      img = await uploaded(alice, eui, photo, 'link.jpg');
      other = await uploaded(alice, eui, await scene(50), 'other.jpg');
      link = pathOf(img.meta.url);
    });

    it('serves the bytes with no other credentials: Content-Type, ETag, 304', async () => {
      const res = await fetchFile(link);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^image\/jpeg/);
      expect((res.body as Buffer).equals(photo)).toBe(true);
      expect(Number(res.headers['content-length'])).toBe(photo.length);
      const etag = res.headers.etag as string;
      expect(etag).toEqual(expect.stringMatching(/^(W\/)?".+"$/));
      const cached = await fetchFile(link).set('If-None-Match', etag);
      expect(cached.status).toBe(304);
      expect((cached.body as Buffer).length).toBe(0);
      // A wrong ETag is a full answer; bad credentials beside the link do not matter.
      expect((await fetchFile(link).set('If-None-Match', '"something-else"')).status).toBe(200);
      const withBadToken = await fetchFile(link).set(...bearer('0'.repeat(64)));
      expect(withBadToken.status).toBe(200);
      expect((withBadToken.body as Buffer).equals(photo)).toBe(true);
    });

    it('answers ranges: 206 with Content-Range', async () => {
      const head = await fetchFile(link).set('Range', 'bytes=0-9');
      expect(head.status).toBe(206);
      expect(head.headers['content-range']).toBe(`bytes 0-9/${photo.length}`);
      expect((head.body as Buffer).equals(photo.subarray(0, 10))).toBe(true);
      const tail = await fetchFile(link).set('Range', 'bytes=-5');
      expect(tail.status).toBe(206);
      expect(tail.headers['content-range']).toBe(`bytes ${photo.length - 5}-${photo.length - 1}/${photo.length}`);
      expect((tail.body as Buffer).equals(photo.subarray(photo.length - 5))).toBe(true);
    });

    it('answers 416 RANGE_NOT_SATISFIABLE beyond the end', async () => {
      const res = await fetchFile(link).set('Range', `bytes=${photo.length}-${photo.length + 100}`);
      expect(res.status).toBe(416);
      expect(res.headers['content-range']).toBe(`bytes */${photo.length}`);
      expect(envelopeOf(res)).toMatchObject({ success: false, data: null, errors: [expect.objectContaining({ code: 'RANGE_NOT_SATISFIABLE' })] });
    });

    it('labels the 416 error envelope as JSON, not as the image', async () => {
      const res = await fetchFile(link).set('Range', `bytes=${photo.length + 10}-`);
      expect(res.status).toBe(416);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
    });

    it('answers 403 FORBIDDEN to an altered or expired link', async () => {
      const url = new URL(img.meta.url);
      const expires = url.searchParams.get('expires')!;
      const signature = url.searchParams.get('signature')!;
      const flipped = `${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`;
      const otherSig = new URL(other.meta.url).searchParams.get('signature')!;
      const base = `/files/image/${img.hash}`;
      const tampered = [
        `${base}?expires=${expires}&signature=${flipped}`,
        `${base}?expires=${Number(expires) + 1}&signature=${signature}`,
        `${base}?expires=${Number(expires) + 86_400 * 365}&signature=${signature}`,
        `${base}?expires=1000000000&signature=${signature}`,
        `${base}?expires=${expires}&signature=${otherSig}`,
        `${base}?expires=${expires}`,
        `${base}?signature=${signature}`,
        `${base}?expires=abc&signature=${signature}`,
        base,
        `/files/image/${other.hash}?expires=${expires}&signature=${signature}`,
        `${base}?expires=${expires}&signature=${signature}&signature=${signature}`,
        `${base}?expires=${expires}&expires=${expires}&signature=${signature}`,
        `${base}?expires=${expires}&signature=${signature}${'A'.repeat(500)}`,
        `${base}?expires=0${expires}&signature=${signature}`,
      ];
      for (const path of tampered) {
        const res = await fetchFile(path);
        expect({ path, status: res.status }).toEqual({ path, status: 403 });
        expect(envelopeOf(res)).toMatchObject({ success: false, data: null, errors: [expect.objectContaining({ code: 'FORBIDDEN' })] });
      }
      // The untouched link still works, also with a member that is not part of it (a cache buster).
      expect((await fetchFile(link)).status).toBe(200);
      expect((await fetchFile(`${link}&v=2`)).status).toBe(200);
    });

    it('answers 403 to a correctly signed link whose time has passed', async () => {
      // Signed by the service's own signer with its clock set two days back: valid signature, expired.
      const links = svc.app.get(ImageLinksService, { strict: false });
      const expired = pathOf(links.url({ hash: img.hash, link_generation: 0 }, Date.now() - 2 * 86_400 * 1000));
      expect(Number(new URL(`http://x${expired}`).searchParams.get('expires'))).toBeLessThan(nowUnix());
      const res = await fetchFile(expired);
      expect(res.status).toBe(403);
      expect(envelopeOf(res)).toMatchObject({ errors: [expect.objectContaining({ code: 'FORBIDDEN' })] });
      // A link signed the same way with a current clock is served: only the expiry made the difference.
      expect((await fetchFile(pathOf(links.url({ hash: img.hash, link_generation: 0 })))).status).toBe(200);
    });
  });

  describe('hostile image hashes', () => {
    let eui: string;
    let img: Detail;
    let query: string;

    beforeAll(async () => {
      eui = (await register(alice)).eui;
      img = await uploaded(alice, eui, await scene(60), 'target.jpg');
      query = new URL(img.meta.url).search;
    });

    const HOSTILE = [
      '..%2F..%2Fetc%2Fpasswd',
      '..%2F..%2F..%2F..%2Fetc%2Fpasswd',
      '%2e%2e%2f%2e%2e%2fetc%2fpasswd',
      '..%5C..%5Cwindows%5Cwin.ini',
      '%252e%252e%252fetc%252fpasswd',
      '../x',
      '..',
      'a'.repeat(31),
      'a'.repeat(33),
      'ABCDEF0123456789ABCDEF0123456789',
      '0123456789abcdef0123456789abcdeg',
      '0123456789abcdef0123456789abcdef%00',
      '%20',
    ];

    /** 400 naming image_hash, or 404 where the router answers first; never a file's bytes. */
    const expectRefused = (res: Response, what: string) => {
      const body = Buffer.isBuffer(res.body) ? envelopeOf(res) : (res.body as Record<string, unknown>);
      expect({ what, status: res.status }).toEqual({ what, status: oneOf([400, 404]) });
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(body).toMatchObject({ success: false, data: null });
      const errors = body.errors as { code: string; field?: string }[];
      if (res.status === 400) expect(errors).toEqual(expect.arrayContaining([expect.objectContaining({ code: 'VALIDATION_FAILED', field: 'image_hash' })]));
      else expect(errors[0]!.code).toEqual(expect.stringMatching(/^(NOT_FOUND|ROUTE_NOT_FOUND)$/));
    };

    it.each(HOSTILE)('refuses %s on every route taking image_hash', async (bad) => {
      expectRefused(await as(alice).get(`/user/device/image/${eui}/${bad}`), `GET detail ${bad}`);
      expectRefused(await as(alice).delete(`/user/device/image/${eui}/${bad}`), `DELETE ${bad}`);
      expectRefused(
        await as(alice).post(`/user/device/image/${eui}/${bad}/annotations`, [{ bbox: [0, 0, 1, 1], score: 0.5, label: 'x' }]),
        `annotations ${bad}`,
      );
      expectRefused(await fetchFile(`/files/image/${bad}${query}`), `file ${bad}`);
      expectRefused(await fetchFile(`/files/image/${bad}`), `file ${bad} without query`);
    });

    it('leaves the image untouched', async () => {
      const d = await detail(alice, eui, img.hash);
      expect(d.meta).toMatchObject({ deleted: 0, annotations: '[]' });
      expect((await fetchFile(pathOf(d.meta.url))).status).toBe(200);
    });

    it('refuses the upper-case form of an existing hash with 400 naming image_hash', async () => {
      const upper = img.hash.toUpperCase();
      expectError(await as(alice).get(`/user/device/image/${eui}/${upper}`), 400, 'VALIDATION_FAILED', 'image_hash');
      expectError(await as(alice).delete(`/user/device/image/${eui}/${upper}`), 400, 'VALIDATION_FAILED', 'image_hash');
      const res = await fetchFile(`/files/image/${upper}${query}`);
      expect(res.status).toBe(400);
      expect(envelopeOf(res)).toMatchObject({ errors: [expect.objectContaining({ code: 'VALIDATION_FAILED', field: 'image_hash' })] });
    });
  });

  describe('accounts and sharing', () => {
    it('hides another account’s image: 404 on detail, delete and annotations; bob’s lists stay empty', async () => {
      const mine = await register(alice);
      const img = await uploaded(alice, mine.eui, await scene(70));
      const his = await register(bob);
      for (const eui of [mine.eui, his.eui]) {
        expectError(await as(bob).get(`/user/device/image/${eui}/${img.hash}`), 404, 'NOT_FOUND');
        expectError(await as(bob).delete(`/user/device/image/${eui}/${img.hash}`), 404, 'NOT_FOUND');
        expectError(
          await as(bob).post(`/user/device/image/${eui}/${img.hash}/annotations`, [{ bbox: [0, 0, 1, 1], score: 1, label: 'spoof' }]),
          404,
          'NOT_FOUND',
        );
      }
      expectError(await as(bob).get(`/user/device/image/${mine.eui}`), 404, 'NOT_FOUND');
      expectError(await upload(bob, mine.eui, await scene(71)), 404, 'NOT_FOUND');
      expect(await list(bob, his.eui)).toEqual([]);
      // Alice's image is as it was.
      const d = await detail(alice, mine.eui, img.hash);
      expect(d.meta).toMatchObject({ deleted: 0, annotations: '[]' });
      expect((await list(alice, mine.eui)).map((e) => e.hash)).toEqual([img.hash]);
      expect(await imageCount(mine.uid)).toBe(1);
    });

    it('lets an account the device is shared with read its images', async () => {
      const device = await register(alice);
      const bytes = await scene(72);
      const img = await uploaded(alice, device.eui, bytes, 'shared.jpg');
      expectError(await as(carol).get(`/user/device/image/${device.eui}`), 404, 'NOT_FOUND');
      expect((await as(alice).post(`/user/device/share/${device.eui}`, { username: carol.account.username })).status).toBe(201);
      expect((await list(carol, device.eui)).map((e) => e.hash)).toEqual([img.hash]);
      const d = await detail(carol, device.eui, img.hash);
      expect(d.meta).toMatchObject({ hash: img.hash, camera_ref: device.uid, filename: 'shared.jpg' });
      const file = await fetchFile(pathOf(d.meta.url));
      expect(file.status).toBe(200);
      expect((file.body as Buffer).equals(bytes)).toBe(true);
    });
  });

  describe('DELETE /user/device/image/{eui}/{hash}', () => {
    it('marks it deleted, removes it from listings at once, the worker purges its bytes; uploading again works', async () => {
      const device = await register(alice);
      const bytes = await scene(80);
      const keep = await uploaded(alice, device.eui, await scene(81), 'keep.jpg', { ts_photo_unix: 500 });
      const img = await uploaded(alice, device.eui, bytes, 'gone.jpg', { ts_photo_unix: 1_000 });
      await ready(alice, device.eui, img.hash, [4]);
      const link = pathOf((await detail(alice, device.eui, img.hash)).meta.url);
      expect((await fetchFile(link)).status).toBe(200);
      expect(await blobCount(img.meta.uid)).toBe(1);

      const res = await as(alice).delete(`/user/device/image/${device.eui}/${img.hash}`);
      expect(expectSuccess(res, 200)).toEqual({ hash: img.hash, deleted: true });
      expect((await list(alice, device.eui)).map((e) => e.hash)).toEqual([keep.hash]);
      expectError(await as(alice).get(`/user/device/image/${device.eui}/${img.hash}`), 404, 'NOT_FOUND');
      expectError(await as(alice).post(`/user/device/image/${device.eui}/${img.hash}/annotations`, []), 404, 'NOT_FOUND');
      const fileRes = await fetchFile(link);
      expect(fileRes.status).toBe(404);
      expect(envelopeOf(fileRes)).toMatchObject({ errors: [expect.objectContaining({ code: 'NOT_FOUND' })] });
      expectError(await as(alice).delete(`/user/device/image/${device.eui}/${img.hash}`), 404, 'NOT_FOUND');

      await eventually(async () => expect(await blobCount(img.meta.uid)).toBe(0), { what: `the blobs of image ${img.meta.uid} to be purged`, intervalMs: 100 });
      const [row] = (await db.query('SELECT deleted FROM images WHERE uid = $1', [img.meta.uid])) as [{ deleted: number }];
      expect(row.deleted).toBe(1);
      // The other image keeps its bytes.
      expect((await fetchFile(pathOf((await detail(alice, device.eui, keep.hash)).meta.url))).status).toBe(200);

      const again = expectSuccess<Detail>(await upload(alice, device.eui, bytes, 'back.jpg', { ts_photo_unix: 2_000 }), 201);
      expect(again.hash).toBe(img.hash);
      // A new row: the purge of the deleted one can never reach the bytes of this one.
      expect(again.meta.uid).not.toBe(img.meta.uid);
      expect(again.meta).toMatchObject({ deleted: 0, filename: 'back.jpg', ts_photo_unix: 2_000, annotations: '[]', status: 1 });
      expect((await list(alice, device.eui)).map((e) => e.hash)).toEqual([img.hash, keep.hash]);
      const done = await ready(alice, device.eui, img.hash, [4]);
      const file = await fetchFile(pathOf(done.meta.url));
      expect(file.status).toBe(200);
      expect((file.body as Buffer).equals(bytes)).toBe(true);
    });
  });

  describe('deleting the device', () => {
    it('takes its images with it: the same EUI registered again, by another account, starts with none', async () => {
      const device = await register(alice);
      const bytes = await scene(85);
      const img = await uploaded(alice, device.eui, bytes, 'before.jpg');
      await ready(alice, device.eui, img.hash, [4]);
      const link = pathOf(img.meta.url);
      expect(expectSuccess(await as(alice).delete(`/user/device/${device.eui}`), 200)).toMatchObject({ removed: true });
      expect((await fetchFile(link)).status).toBe(404);
      await eventually(async () => expect(await blobCount(img.meta.uid)).toBe(0), { what: `the blobs of image ${img.meta.uid} to be purged`, intervalMs: 100 });

      const again = await register(bob, device.eui);
      expect(await list(bob, device.eui)).toEqual([]);
      expectError(await as(bob).get(`/user/device/image/${device.eui}/${img.hash}`), 404, 'NOT_FOUND');
      // The same photo on the new registration is a new image of bob's, not alice's old one.
      const mine = expectSuccess<Detail>(await upload(bob, device.eui, bytes, 'after.jpg'), 201);
      expect(mine.meta).toMatchObject({ hash: img.hash, camera_ref: again.uid, filename: 'after.jpg', annotations: '[]' });
      expect(mine.meta.uid).not.toBe(img.meta.uid);
      expect((await list(bob, device.eui)).map((e) => e.hash)).toEqual([img.hash]);
    });

    it('removes the bytes of every image of a deleted account', async () => {
      const dora = await accountWithCredentials(svc, 'dora');
      const device = await register(dora);
      const img = await uploaded(dora, device.eui, await scene(86));
      expect(await blobCount(img.meta.uid)).toBe(1);
      const res = await svc.http().delete('/auth/register').set('Cookie', dora.cookie).send({ password: dora.account.password });
      expect(res.status).toBe(200);
      await eventually(async () => expect(await blobCount(img.meta.uid)).toBe(0), { what: `the blobs of image ${img.meta.uid} to be purged`, intervalMs: 100 });
      expect((await fetchFile(pathOf(img.meta.url))).status).toBe(404);
    });
  });

  describe('credentials', () => {
    let eui: string;
    let hash: string;

    beforeAll(async () => {
      eui = (await register(alice)).eui;
      hash = (await uploaded(alice, eui, await scene(90))).hash;
    });

    it('answers 401 AUTH_REQUIRED on every user route without credentials', async () => {
      const anon = () => svc.http();
      expectError(await anon().get(`/user/device/image/${eui}`), 401, 'AUTH_REQUIRED');
      expectError(await upload(null, eui, photo), 401, 'AUTH_REQUIRED');
      expectError(await anon().get(`/user/device/image/${eui}/${hash}`), 401, 'AUTH_REQUIRED');
      expectError(await anon().delete(`/user/device/image/${eui}/${hash}`), 401, 'AUTH_REQUIRED');
      expectError(
        await anon()
          .post(`/user/device/image/${eui}/${hash}/annotations`)
          .send([{ bbox: [0, 0, 1, 1], score: 1, label: 'x' }]),
        401,
        'AUTH_REQUIRED',
      );
      const d = await detail(alice, eui, hash);
      expect(d.meta).toMatchObject({ deleted: 0, annotations: '[]' });
      expect((await list(alice, eui)).map((e) => e.hash)).toEqual([hash]);
      // The signed link needs none.
      expect((await fetchFile(pathOf(d.meta.url))).status).toBe(200);
    });
  });
});
