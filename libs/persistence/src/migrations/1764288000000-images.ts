import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Camera-trap images: one row per image, its annotations and thumbnail, and its bytes when the
 * database is the image store (the default). The content hash is unique among live images only: a
 * deleted image keeps its row (and uid, the key of its bytes in every store) until the worker has
 * purged the bytes, and the same photo uploaded again is a new row with a new uid, so a purge can
 * never remove the bytes of a later upload.
 */
export class Images1764288000000 implements MigrationInterface {
  name = 'Images1764288000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE images (
        uid           serial PRIMARY KEY,
        device_id     integer NOT NULL REFERENCES devices(uid) ON DELETE CASCADE,
        hash          text NOT NULL CHECK (hash ~ '^[0-9a-f]{32}$'),
        bin_hash      text NOT NULL CHECK (bin_hash ~ '^[0-9a-f]{64}$'),
        content_type  text NOT NULL CHECK (content_type IN ('image/jpeg', 'image/png')),
        size          integer NOT NULL,
        ts_photo      timestamptz NOT NULL,
        ts_tx         timestamptz NOT NULL,
        ts_sync       timestamptz NOT NULL DEFAULT now(),
        lat           double precision,
        lon           double precision,
        vendor_id     text,
        filename      text NOT NULL,
        image_details jsonb,
        status        smallint NOT NULL DEFAULT 1 CHECK (status BETWEEN 1 AND 5),
        status_reason text,
        annotations   jsonb NOT NULL DEFAULT '[]',
        thumb         bytea,
        deleted       smallint NOT NULL DEFAULT 0 CHECK (deleted IN (0, 1)),
        bytes_purged  boolean NOT NULL DEFAULT false,
        created_at    timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX images_live_hash_idx ON images (hash) WHERE deleted = 0`);
    await q.query(`CREATE INDEX images_device_idx ON images (device_id)`);
    await q.query(`CREATE INDEX images_device_photo_idx ON images (device_id, ts_photo DESC) WHERE deleted = 0`);
    await q.query(`CREATE TABLE image_blobs (image_id integer PRIMARY KEY REFERENCES images(uid) ON DELETE CASCADE, bytes bytea NOT NULL)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE IF EXISTS image_blobs');
    await q.query('DROP TABLE IF EXISTS images');
  }
}
