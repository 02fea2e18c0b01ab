import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { AnnotationWire } from '@dts/domain';
import { DataSource } from 'typeorm';
import { returningRows } from '../repositories/sql-results';

export interface ImageRow {
  uid: number;
  device_id: number;
  hash: string;
  bin_hash: string;
  content_type: 'image/jpeg' | 'image/png';
  size: number;
  ts_photo: Date;
  ts_tx: Date;
  ts_sync: Date;
  lat: number | null;
  lon: number | null;
  vendor_id: string | null;
  filename: string;
  image_details: Record<string, unknown> | null;
  status: 1 | 2 | 3 | 4 | 5;
  status_reason: string | null;
  annotations: AnnotationWire[];
  thumb: Buffer | null;
  deleted: 0 | 1;
  bytes_purged: boolean;
}

export interface NewImage {
  deviceUid: number;
  hash: string;
  binHash: string;
  contentType: 'image/jpeg' | 'image/png';
  size: number;
  tsPhoto: Date;
  tsTx: Date;
  lat: number | null;
  lon: number | null;
  vendorId: string | null;
  filename: string;
  details: Record<string, unknown>;
}

const COLUMNS = `uid, device_id, hash, bin_hash, content_type, size, ts_photo, ts_tx, ts_sync, lat, lon, vendor_id, filename, image_details, status,
  status_reason, annotations, thumb, deleted, bytes_purged`;

@Injectable()
export class ImagesRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /**
   * Stores a new image; `created` is false when a live image of the same content (and so the same
   * device: the hash covers the EUI) already exists, which is then returned unchanged.
   */
  async upsert(input: NewImage): Promise<{ row: ImageRow; created: boolean }> {
    // One statement decides between concurrent uploads of the same photo: the first inserts, the
    // others find it. A deleted image of the same content does not conflict: it is a row of its own.
    const [inserted] = await returningRows<ImageRow>(
      this.ds,
      `INSERT INTO images (device_id, hash, bin_hash, content_type, size, ts_photo, ts_tx, lat, lon, vendor_id, filename, image_details)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
       ON CONFLICT (hash) WHERE deleted = 0 DO NOTHING RETURNING ${COLUMNS}`,
      [input.deviceUid, input.hash, input.binHash, input.contentType, input.size, input.tsPhoto, input.tsTx, input.lat, input.lon, input.vendorId, input.filename, JSON.stringify(input.details)],
    );
    if (inserted) return { row: inserted, created: true };
    const live = await this.byHash(input.hash);
    // Deleted between the two statements: the caller's retry inserts it anew.
    if (!live) return this.upsert(input);
    return { row: live, created: false };
  }

  /** The live image with this hash (deleted ones are history, purged by the worker). */
  async byHash(hash: string): Promise<ImageRow | null> {
    const rows: ImageRow[] = await this.ds.query(`SELECT ${COLUMNS} FROM images WHERE hash = $1 AND deleted = 0`, [hash]);
    return rows[0] ?? null;
  }

  async byUid(uid: number): Promise<ImageRow | null> {
    const rows: ImageRow[] = await this.ds.query(`SELECT ${COLUMNS} FROM images WHERE uid = $1`, [uid]);
    return rows[0] ?? null;
  }

  /** The device's live images, newest photo first (thumbnails left out: a list does not show them). */
  list(deviceUid: number): Promise<ImageRow[]> {
    return this.ds.query(`SELECT ${COLUMNS.replace('thumb,', 'NULL::bytea AS thumb,')} FROM images WHERE device_id = $1 AND deleted = 0 ORDER BY ts_photo DESC, uid DESC`, [deviceUid]);
  }

  async setStatus(uid: number, status: number, reason: string | null = null): Promise<void> {
    await this.ds.query('UPDATE images SET status = $2, status_reason = $3 WHERE uid = $1', [uid, status, reason]);
  }

  /** Thumbnail done: ready, or annotated when annotations arrived first. */
  async setThumbnail(uid: number, thumb: Buffer, details: Record<string, unknown>): Promise<void> {
    await this.ds.query(
      `UPDATE images SET thumb = $2, image_details = coalesce(image_details, '{}'::jsonb) || $3::jsonb,
              status = CASE WHEN jsonb_array_length(annotations) > 0 THEN 5 ELSE 4 END, status_reason = NULL
       WHERE uid = $1`,
      [uid, thumb, JSON.stringify(details)],
    );
  }

  /** Replaces the annotations; an image whose thumbnail is done becomes annotated (5). */
  async setAnnotations(uid: number, annotations: AnnotationWire[]): Promise<ImageRow> {
    const [row] = await returningRows<ImageRow>(
      this.ds,
      `UPDATE images SET annotations = $2::jsonb,
              status = CASE WHEN status IN (4, 5) THEN (CASE WHEN jsonb_array_length($2::jsonb) > 0 THEN 5 ELSE 4 END) ELSE status END
       WHERE uid = $1 RETURNING ${COLUMNS}`,
      [uid, JSON.stringify(annotations)],
    );
    return row;
  }

  /** Gone from listings at once; the worker removes the bytes. */
  async softDelete(uid: number): Promise<void> {
    await this.ds.query('UPDATE images SET deleted = 1 WHERE uid = $1', [uid]);
  }

  /**
   * Marks deleted every image of a device (or of every device an account owns) whose bytes are
   * still stored, and returns their uids for the purge jobs: the rows may go with the device by
   * cascade before the worker gets to them, but their bytes in a directory or S3 store would not.
   */
  async retire(owner: { deviceUid: number } | { accountId: number }): Promise<number[]> {
    const [where, id] = 'deviceUid' in owner ? ['device_id = $1', owner.deviceUid] : ['device_id IN (SELECT uid FROM devices WHERE owner_id = $1)', owner.accountId];
    const rows = await returningRows<{ uid: number }>(this.ds, `UPDATE images SET deleted = 1 WHERE ${where} AND bytes_purged = false RETURNING uid`, [id]);
    return rows.map((r) => r.uid);
  }

  async markPurged(uid: number): Promise<void> {
    await this.ds.query('UPDATE images SET bytes_purged = true, thumb = NULL WHERE uid = $1 AND deleted = 1', [uid]);
  }
}
