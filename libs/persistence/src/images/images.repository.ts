import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { AnnotationWire, ImagePredictionWire, StoredAnnotation } from '@dts/domain';
import { DataSource } from 'typeorm';
import { LiveBus } from '../live/live-bus';
import { onlyRow, returningRows } from '../sql/sql-results';

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
  annotations: StoredAnnotation[];
  prediction: ImagePredictionWire | null;
  thumb: Buffer | null;
  deleted: 0 | 1;
  bytes_purged: boolean;
  /** The bytes are stored: only complete images are visible. */
  completed: boolean;
  /** The device's link generation (part of signed links), read with the image. */
  link_generation: number;
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
  status_reason, annotations, prediction, thumb, deleted, bytes_purged, completed,
  (SELECT d.link_generation FROM devices d WHERE d.uid = images.device_id) AS link_generation`;

/** The columns of an ImageRow (the event router reads images by uid). */
export const IMAGE_ROW_COLUMNS = COLUMNS;

/** Boxes, or a prediction for the whole image: either makes a finished image annotated (5). */
const ANNOTATED = `(jsonb_array_length(annotations) > 0 OR prediction IS NOT NULL)`;

@Injectable()
export class ImagesRepository {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly bus: LiveBus,
  ) {}

  /** Every change a gallery shows is announced here, in whichever app made it, after it is stored. */
  private announce(deviceUid: number, image: number): Promise<void> {
    return this.bus.publish([{ kind: 'image', device: deviceUid, image }]);
  }

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
      [
        input.deviceUid,
        input.hash,
        input.binHash,
        input.contentType,
        input.size,
        input.tsPhoto,
        input.tsTx,
        input.lat,
        input.lon,
        input.vendorId,
        input.filename,
        JSON.stringify(input.details),
      ],
    );
    if (inserted) return { row: inserted, created: true };
    const live = await this.live(input.hash);
    // Deleted between the two statements: the caller's retry inserts it anew.
    if (!live) return this.upsert(input);
    return { row: live, created: false };
  }

  /** The visible image with this hash: live (deleted ones are history, purged by the worker) and complete. */
  async byHash(hash: string): Promise<ImageRow | null> {
    const rows: ImageRow[] = await this.ds.query(`SELECT ${COLUMNS} FROM images WHERE hash = $1 AND deleted = 0 AND completed`, [hash]);
    return rows[0] ?? null;
  }

  /** The live image with this hash, complete or not (an upload completes an earlier one cut short). */
  private async live(hash: string): Promise<ImageRow | null> {
    const rows: ImageRow[] = await this.ds.query(`SELECT ${COLUMNS} FROM images WHERE hash = $1 AND deleted = 0`, [hash]);
    return rows[0] ?? null;
  }

  /** The upload's bytes are stored: from now on the image is listed and served. */
  async markCompleted(uid: number): Promise<ImageRow> {
    const row = onlyRow(await returningRows<ImageRow>(this.ds, `UPDATE images SET completed = true WHERE uid = $1 RETURNING ${COLUMNS}`, [uid]));
    await this.announce(row.device_id, row.uid);
    return row;
  }

  /**
   * Uploads begun more than `olderThanMs` ago that never completed (the process died between the
   * row and its bytes): marked deleted and returned, for their bytes, if any, to be removed.
   */
  async retireIncomplete(olderThanMs: number): Promise<number[]> {
    const rows = await returningRows<{ uid: number }>(
      this.ds,
      `UPDATE images SET deleted = 1 WHERE NOT completed AND deleted = 0 AND ts_sync < now() - $1 * interval '1 millisecond' RETURNING uid`,
      [olderThanMs],
    );
    return rows.map((r) => r.uid);
  }

  async byUid(uid: number): Promise<ImageRow | null> {
    const rows: ImageRow[] = await this.ds.query(`SELECT ${COLUMNS} FROM images WHERE uid = $1`, [uid]);
    return rows[0] ?? null;
  }

  /** The device's live images, newest photo first (thumbnails left out: a list does not show them). */
  list(deviceUid: number): Promise<ImageRow[]> {
    return this.ds.query(
      `SELECT ${COLUMNS.replace('thumb,', 'NULL::bytea AS thumb,')} FROM images WHERE device_id = $1 AND deleted = 0 AND completed ORDER BY ts_photo DESC, uid DESC`,
      [deviceUid],
    );
  }

  async setStatus(uid: number, status: number, reason: string | null = null): Promise<void> {
    const rows = await returningRows<{ device_id: number }>(this.ds, 'UPDATE images SET status = $2, status_reason = $3 WHERE uid = $1 RETURNING device_id', [
      uid,
      status,
      reason,
    ]);
    for (const r of rows) await this.announce(r.device_id, uid);
  }

  /** Thumbnail done: ready, or annotated when annotations arrived first. */
  async setThumbnail(uid: number, thumb: Buffer, details: Record<string, unknown>): Promise<void> {
    const rows = await returningRows<{ device_id: number }>(
      this.ds,
      `UPDATE images SET thumb = $2, image_details = coalesce(image_details, '{}'::jsonb) || $3::jsonb,
              status = CASE WHEN ${ANNOTATED} THEN 5 ELSE 4 END, status_reason = NULL
       WHERE uid = $1 RETURNING device_id`,
      [uid, thumb, JSON.stringify(details)],
    );
    for (const r of rows) await this.announce(r.device_id, uid);
  }

  /**
   * Replaces the annotations and the image-level prediction; an image whose thumbnail is done
   * becomes annotated (5), or ready (4) again when both are cleared.
   */
  async setAnnotations(uid: number, annotations: AnnotationWire[], prediction: ImagePredictionWire | null): Promise<ImageRow> {
    const [row] = await returningRows<ImageRow>(
      this.ds,
      `UPDATE images SET annotations = $2::jsonb, prediction = $3::jsonb,
              status = CASE WHEN status IN (4, 5) THEN (CASE WHEN jsonb_array_length($2::jsonb) > 0 OR $3::jsonb IS NOT NULL THEN 5 ELSE 4 END) ELSE status END
       WHERE uid = $1 RETURNING ${COLUMNS}`,
      [uid, JSON.stringify(annotations), prediction === null ? null : JSON.stringify(prediction)],
    );
    // The caller found the image a moment ago; images are only ever marked deleted, never removed here.
    if (!row) throw new Error(`image ${uid} vanished while being annotated`);
    await this.announce(row.device_id, row.uid);
    return row;
  }

  /** Gone from listings at once; the worker removes the bytes. */
  async softDelete(uid: number): Promise<void> {
    const rows = await returningRows<{ device_id: number }>(this.ds, 'UPDATE images SET deleted = 1 WHERE uid = $1 RETURNING device_id', [uid]);
    for (const r of rows) await this.announce(r.device_id, uid);
  }

  /**
   * Marks deleted every image of a device (or of every device an account owns) whose bytes are
   * still stored, and returns their uids for the purge jobs: the rows may go with the device by
   * cascade before the worker gets to them, but their bytes in a directory or S3 store would not.
   */
  async retire(owner: { deviceUid: number } | { accountId: number }): Promise<number[]> {
    const [where, id] =
      'deviceUid' in owner ? ['device_id = $1', owner.deviceUid] : ['device_id IN (SELECT uid FROM devices WHERE owner_id = $1)', owner.accountId];
    const rows = await returningRows<{ uid: number }>(this.ds, `UPDATE images SET deleted = 1 WHERE ${where} AND bytes_purged = false RETURNING uid`, [id]);
    return rows.map((r) => r.uid);
  }

  async markPurged(uid: number): Promise<void> {
    await this.ds.query('UPDATE images SET bytes_purged = true, thumb = NULL WHERE uid = $1 AND deleted = 1', [uid]);
  }
}
