import { Injectable } from '@nestjs/common';
import {
  annotationsFrom,
  type Eui,
  IMAGE_HASH_PATTERN,
  imageThumbnailJobId,
  type ImageDetailWire,
  type ImageListEntryWire,
  imageType,
  normalizeEui,
} from '@dts/domain';
import { type ImageRow, ImagesRepository, ImageStore, IngestRepository } from '@dts/persistence';
import { JobQueue } from '@dts/platform';
import type { IngestCaller } from '../../common/auth/ingest-caller';
import type { FileAnswer } from '../../common/http/send-stream';
import { createHash } from 'node:crypto';
import rangeParser from 'range-parser';
import type { AuthPrincipal } from '../../common/auth/auth-principal';
import { ApiException } from '../../common/http/api.exception';
import { DeviceAccessService } from '../devices/device-access.service';
import type { IngestImageDto, UploadImageDto } from './dto/upload-image.dto';
import { ImageLinksService } from './image-links.service';
import { toImageDetailWire, toImageListEntryWire } from './image.mapper';

/** What the form says and the file holds, with the device it is for. */
interface Upload {
  device: { uid: number; eui: string };
  file: Express.Multer.File | undefined;
  fields: UploadImageDto;
}

const EXIF_DATE = /^(\d{4}):(\d{2}):(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;
const EXIF_OFFSET = /^[+-]\d{2}:\d{2}$/;

/**
 * An EXIF date ("YYYY:MM:DD HH:MM:SS") at its recorded offset. A camera writes its own wall-clock
 * time; without an offset it is taken as UTC, never as the server's zone (which would make the
 * stored time depend on where the service runs).
 */
function exifDate(text: unknown, offset: unknown): Date | null {
  const m = typeof text === 'string' ? EXIF_DATE.exec(text.trim()) : null;
  if (!m) return null;
  const zone = typeof offset === 'string' && EXIF_OFFSET.test(offset.trim()) ? offset.trim() : 'Z';
  const date = new Date(`${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}${zone}`);
  return Number.isFinite(date.getTime()) ? date : null;
}

async function exifOf(bytes: Buffer): Promise<{ takenAt: Date | null; lat: number | null; lon: number | null }> {
  try {
    // Loaded at the first upload, not at start-up (docs/benchmarks.md, figure 15).
    const { default: exifr } = await import('exifr');
    // Values as written (reviveValues: false): exifr would read the dates in the server's zone.
    const exif = (await exifr.parse(bytes, { tiff: true, exif: true, gps: true, reviveValues: false })) as Record<string, unknown> | undefined;
    const takenAt = exifDate(exif?.DateTimeOriginal, exif?.OffsetTimeOriginal) ?? exifDate(exif?.CreateDate, exif?.OffsetTimeDigitized);
    const valid = (n: unknown, limit: number) => (typeof n === 'number' && Number.isFinite(n) && Math.abs(n) <= limit ? n : null);
    return { takenAt, lat: valid(exif?.latitude, 90), lon: valid(exif?.longitude, 180) };
  } catch {
    // A photo without (or with broken) EXIF is still a photo.
    return { takenAt: null, lat: null, lon: null };
  }
}

@Injectable()
export class ImagesService {
  constructor(
    private readonly access: DeviceAccessService,
    private readonly images: ImagesRepository,
    private readonly store: ImageStore,
    private readonly ingest: IngestRepository,
    private readonly links: ImageLinksService,
    private readonly jobs: JobQueue,
  ) {}

  async uploadAsUser(principal: AuthPrincipal, eui: Eui, file: Express.Multer.File | undefined, fields: UploadImageDto) {
    const device = await this.access.require(principal, eui);
    return this.store_({ device, file, fields });
  }

  async uploadByIngest(caller: IngestCaller, file: Express.Multer.File | undefined, fields: IngestImageDto) {
    const eui = normalizeEui(fields.devEUI);
    if (!eui) throw ApiException.validation('devEUI', 'devEUI must be 16 hexadecimal characters');
    const device = (await this.ingest.targets([eui], caller.accountId)).get(eui);
    if (!device) throw ApiException.notFound('device', 'devEUI');
    const { devEUI: _devEUI, ...rest } = fields;
    return this.store_({ device, file, fields: rest });
  }

  /**
   * Stores an upload: the same bytes on the same device are the same image (200, unchanged); a new
   * one is recorded, its bytes stored, and its thumbnail queued (201).
   */
  private async store_({ device, file, fields }: Upload): Promise<{ created: boolean; detail: ImageDetailWire }> {
    if (!file || !file.buffer || file.size === 0) throw ApiException.validation('file', 'a file (multipart field "file") is required');
    const contentType = imageType(file.buffer);
    if (!contentType) throw ApiException.of('UNSUPPORTED_MEDIA_TYPE', 'the file is neither a JPEG nor a PNG image (by its bytes)', 'file');
    const binHash = createHash('sha256').update(file.buffer).digest('hex');
    // 32 hex characters from the content, distinct per device: the same photo on two cameras is two images.
    const hash = createHash('md5').update(`${device.eui}:${binHash}`).digest('hex');
    const exif = await exifOf(file.buffer);
    const tsPhoto = fields.ts_photo_unix !== undefined ? new Date(fields.ts_photo_unix * 1000) : (exif.takenAt ?? new Date());
    const original = (file.originalname ?? '').split(/[\\/]/).pop()?.slice(0, 255);
    const { row, created } = await this.images.upsert({
      deviceUid: device.uid,
      hash,
      binHash,
      contentType,
      size: file.size,
      tsPhoto,
      tsTx: fields.ts_tx_unix !== undefined ? new Date(fields.ts_tx_unix * 1000) : tsPhoto,
      lat: fields.lat ?? exif.lat,
      lon: fields.lon ?? exif.lon,
      vendorId: fields.vendor_id ?? null,
      filename: fields.filename ?? (original || `${hash}.${contentType === 'image/png' ? 'png' : 'jpg'}`),
      details: { size: file.size, content_type: contentType },
    });
    // The row is invisible until its bytes are stored (a process killed in between leaves nothing
    // anyone sees: the image.reap job removes it). A repeated upload completes one cut short, or
    // one still "received" whose thumbnail was not queued (every step is idempotent).
    let stored = row;
    if (created || !row.completed || row.status === 1) {
      await this.store.put(row.uid, file.buffer);
      if (!row.completed) stored = await this.images.markCompleted(row.uid);
      await this.jobs.enqueue('image.thumbnail', { imageUid: row.uid }, { jobId: imageThumbnailJobId(row.uid) });
    }
    return { created, detail: toImageDetailWire(stored, this.links.url(stored)) };
  }

  async list(principal: AuthPrincipal, eui: Eui): Promise<ImageListEntryWire[]> {
    const device = await this.access.require(principal, eui);
    return (await this.images.list(device.uid)).map(toImageListEntryWire);
  }

  /** The thumbnail's JPEG (GET …/thumb): 404 until the worker made it. */
  async thumbnail(principal: AuthPrincipal, eui: Eui, hash: string, ifNoneMatch: string | undefined): Promise<FileAnswer> {
    const image = await this.image(principal, eui, hash);
    if (!image.thumb) throw ApiException.of('NOT_FOUND', 'the thumbnail is not made yet (status 1 or 2) or could not be made (3)', 'image_hash');
    // The thumbnail of these bytes never changes: the photo's digest names it.
    const etag = `"${image.bin_hash.slice(0, 32)}-thumb"`;
    const headers = { ETag: etag, 'Cache-Control': 'private, max-age=86400', 'Content-Disposition': 'inline' };
    if (ifNoneMatch === etag) return { contentType: 'image/jpeg', headers, status: 304, body: null };
    return { contentType: 'image/jpeg', headers, status: 200, body: image.thumb };
  }

  async detail(principal: AuthPrincipal, eui: Eui, hash: string): Promise<ImageDetailWire> {
    const image = await this.image(principal, eui, hash);
    return toImageDetailWire(image, this.links.url(image));
  }

  async remove(principal: AuthPrincipal, eui: Eui, hash: string): Promise<{ hash: string; deleted: true }> {
    const image = await this.image(principal, eui, hash);
    await this.images.softDelete(image.uid);
    await this.jobs.enqueue('image.purge', { imageUid: image.uid });
    return { hash: image.hash, deleted: true };
  }

  async annotate(principal: AuthPrincipal, eui: Eui, hash: string, body: unknown): Promise<ImageDetailWire> {
    const image = await this.image(principal, eui, hash);
    const found = annotationsFrom(body, image.filename);
    if ('field' in found) throw ApiException.validation(found.field, found.message);
    const row = await this.images.setAnnotations(image.uid, found.annotations, found.prediction);
    return toImageDetailWire(row, this.links.url(row));
  }

  /**
   * The image file behind a signed link: no other credentials; ETag, ranges and types as a file
   * server would. `conditions` are the request's Range and If-None-Match headers.
   */
  async file(hash: string, expiresText: unknown, signature: unknown, conditions: { range?: string; ifNoneMatch?: string }): Promise<FileAnswer> {
    if (!IMAGE_HASH_PATTERN.test(hash)) throw ApiException.validation('image_hash', 'image_hash must be 32 hexadecimal characters');
    // A member missing, repeated (an array) or reformatted (a leading zero) is a changed link like any other.
    const expires = typeof expiresText === 'string' && /^[1-9]\d{0,11}$/.test(expiresText) ? Number(expiresText) : NaN;
    const image = await this.images.byHash(hash);
    // An unknown image is judged as generation 0: a link to it is refused (403) before it is not found (404).
    const linked = image ?? { hash, link_generation: 0 };
    if (!Number.isFinite(expires) || typeof signature !== 'string' || !this.links.valid(linked, expires, signature))
      throw ApiException.of('FORBIDDEN', 'the link has expired or was altered');
    const bytes = image && image.deleted === 0 ? await this.store.get(image.uid) : null;
    if (!image || !bytes) throw ApiException.notFound('image');
    // The range is judged before any header of the file is set: a refusal is a plain error envelope.
    const range = conditions.range ? rangeParser(bytes.length, conditions.range, { combine: true }) : null;
    if (range === -1)
      throw ApiException.of('RANGE_NOT_SATISFIABLE', 'the range is outside the file', 'Range').withHeader('Content-Range', `bytes */${bytes.length}`);
    const etag = `"${image.bin_hash}"`;
    const headers = {
      ETag: etag,
      'Cache-Control': `private, max-age=${Math.max(0, expires - Math.floor(Date.now() / 1000))}`,
      'Accept-Ranges': 'bytes',
      // A signed link is meant to be shown anywhere (an <img> of a dashboard on another origin).
      'Cross-Origin-Resource-Policy': 'cross-origin',
      'Content-Disposition': `inline; filename="${image.filename.replace(/[^\x20-\x7e]|"/g, '_')}"`,
    };
    const file = { contentType: image.content_type, headers };
    if (conditions.ifNoneMatch === etag) return { ...file, status: 304, body: null };
    const [only] = Array.isArray(range) && range.type === 'bytes' && range.length === 1 ? range : [];
    if (only) {
      const { start, end } = only;
      return { ...file, status: 206, headers: { ...headers, 'Content-Range': `bytes ${start}-${end}/${bytes.length}` }, body: bytes.subarray(start, end + 1) };
    }
    return { ...file, status: 200, body: bytes };
  }

  private async image(principal: AuthPrincipal, eui: Eui, hash: string): Promise<ImageRow> {
    const device = await this.access.require(principal, eui);
    if (!IMAGE_HASH_PATTERN.test(hash)) throw ApiException.validation('image_hash', 'image_hash must be 32 hexadecimal characters');
    const image = await this.images.byHash(hash);
    // Another device's image, or a deleted one, is as unknown as one that never was.
    if (!image || image.device_id !== device.uid || image.deleted === 1) throw ApiException.notFound('image', 'image_hash');
    return image;
  }
}
