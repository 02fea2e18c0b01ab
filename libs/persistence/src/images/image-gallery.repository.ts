import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { ImageLabelWire, StoredImage } from '@dts/domain';
import { DataSource } from 'typeorm';
import { ReadDatabase } from '../read/read-database';
import { ACCESSIBLE } from '../devices/device-sql';

/** What the gallery and the live feeds show of an image: a list entry, its camera's EUI, the keyset. */
export interface ImageGalleryRow extends StoredImage {
  uid: number;
  device_id: number;
  eui: string;
  deleted: 0 | 1;
  completed: boolean;
}

export interface ImageGalleryRequest {
  accountId: number;
  /** One camera (already checked to be the account's), or all it reaches. */
  deviceUid: number | null;
  /** Texts to find (contained, without regard to case) in a detection's label / taxonomy. */
  label: string | null;
  species: string | null;
  minScore: number | null;
  from: Date | null;
  to: Date | null;
  limit: number;
  /** The last entry of the previous page (newest photo first, uid as tie-break). */
  after: { tsPhoto: Date; uid: number } | null;
}

const GALLERY_COLUMNS = `i.uid, i.device_id, d.eui, i.hash, i.ts_photo, i.ts_tx, i.ts_sync, i.lat, i.lon, i.annotations, i.prediction, i.status, i.filename,
  i.deleted, i.completed`;

/** A LIKE pattern that finds the text anywhere, its own wildcards taken literally. */
const containing = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The camera-trap gallery of an account: its pages, its labels, and one entry for a live event. */
@Injectable()
export class ImageGalleryRepository {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly reads: ReadDatabase,
  ) {}

  /**
   * The gallery: the live, complete images of the cameras the account reaches (or of one), newest
   * photo first, filtered by what their detections say and when they were taken, in keyset pages.
   * A detection is a box or the image-level prediction; label, species and score filters must all
   * hold for one and the same detection. A search a user asks for: bounded in time, and may be a
   * moment stale (ReadDatabase).
   */
  gallery(r: ImageGalleryRequest): Promise<ImageGalleryRow[]> {
    const detections = r.label !== null || r.species !== null || r.minScore !== null;
    return this.reads.query<ImageGalleryRow>(
      `SELECT ${GALLERY_COLUMNS} FROM images i JOIN devices d ON d.uid = i.device_id
       WHERE ${ACCESSIBLE} AND i.deleted = 0 AND i.completed
         AND ($2::int IS NULL OR i.device_id = $2)
         AND ($6::timestamptz IS NULL OR i.ts_photo >= $6) AND ($7::timestamptz IS NULL OR i.ts_photo <= $7)
         AND ($8::timestamptz IS NULL OR (i.ts_photo, i.uid) < ($8, $9::int))
         ${
           detections
             ? `AND EXISTS (
           SELECT 1 FROM (
             SELECT a->>'label' AS label, a->'score' AS score, a->'taxonomy' AS taxonomy FROM jsonb_array_elements(i.annotations) a
             UNION ALL SELECT i.prediction->>'label', i.prediction->'score', i.prediction->'taxonomy' WHERE i.prediction IS NOT NULL
           ) x
           WHERE ($3::text IS NULL OR x.label ILIKE $3)
             AND ($4::float8 IS NULL OR (jsonb_typeof(x.score) = 'number' AND (x.score #>> '{}')::float8 >= $4))
             AND ($5::text IS NULL OR (jsonb_typeof(x.taxonomy) = 'object' AND concat_ws(' ', x.taxonomy->>'class', x.taxonomy->>'order',
                  x.taxonomy->>'family', x.taxonomy->>'genus', x.taxonomy->>'species') ILIKE $5)))`
             : // The parameters are all null here; naming them gives them their types.
               'AND $3::text IS NULL AND $4::float8 IS NULL AND $5::text IS NULL'
         }
       ORDER BY i.ts_photo DESC, i.uid DESC LIMIT $10`,
      [
        r.accountId,
        r.deviceUid,
        r.label === null ? null : containing(r.label),
        r.minScore,
        r.species === null ? null : containing(r.species),
        r.from,
        r.to,
        r.after?.tsPhoto ?? null,
        r.after?.uid ?? null,
        r.limit,
      ],
    );
  }

  /**
   * The labels of the boxes and image-level predictions on the live images of every camera the
   * account reaches, the most used first, each with the taxonomy most often given with it.
   */
  async labels(accountId: number, limit: number): Promise<ImageLabelWire[]> {
    const rows = await this.reads.query<{ label: string; taxonomy: ImageLabelWire['taxonomy']; count: number }>(
      `WITH visible AS (
         SELECT i.annotations, i.prediction FROM images i JOIN devices d ON d.uid = i.device_id
         WHERE ${ACCESSIBLE} AND i.deleted = 0 AND i.completed AND (jsonb_array_length(i.annotations) > 0 OR i.prediction IS NOT NULL)
       ), used AS (
         SELECT a->>'label' AS label, a->'taxonomy' AS taxonomy FROM visible, jsonb_array_elements(visible.annotations) a
         UNION ALL SELECT prediction->>'label', prediction->'taxonomy' FROM visible WHERE prediction IS NOT NULL
       ), counted AS (
         SELECT label, CASE WHEN jsonb_typeof(taxonomy) = 'object' THEN taxonomy END AS taxonomy, count(*)::int AS n
         FROM used WHERE label IS NOT NULL GROUP BY 1, 2
       )
       SELECT label, sum(n)::int AS count, (array_agg(taxonomy ORDER BY taxonomy IS NULL, n DESC, taxonomy::text))[1] AS taxonomy
       FROM counted GROUP BY label ORDER BY count DESC, label LIMIT $2`,
      [accountId, limit],
    );
    return rows.map((r) => ({ label: r.label, taxonomy: r.taxonomy, count: r.count }));
  }

  /** One image as the gallery shows it, deleted or not (a live event names it by uid). */
  async galleryEntry(uid: number): Promise<ImageGalleryRow | null> {
    const rows: ImageGalleryRow[] = await this.ds.query(`SELECT ${GALLERY_COLUMNS} FROM images i JOIN devices d ON d.uid = i.device_id WHERE i.uid = $1`, [
      uid,
    ]);
    return rows[0] ?? null;
  }
}
