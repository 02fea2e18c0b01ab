import { type ImageDetailWire, type ImageListEntryWire, toUnix } from '@dts/domain';
import type { ImageRow } from '@dts/persistence';

export function toImageListEntryWire(row: ImageRow): ImageListEntryWire {
  return {
    hash: row.hash,
    ts_photo_unix: toUnix(row.ts_photo),
    ts_tx_unix: toUnix(row.ts_tx),
    ts_sync_unix: toUnix(row.ts_sync),
    lat: row.lat,
    lon: row.lon,
    annotations: row.annotations,
    status: row.status,
    filename: row.filename,
  };
}

/**
 * The detail in the spec's shape: annotations and details as JSON strings, the thumbnail in Base64.
 * A failed image (status 3) says why in `image_details.error`.
 */
export function toImageDetailWire(row: ImageRow, url: string): ImageDetailWire {
  return {
    hash: row.hash,
    meta: {
      uid: row.uid,
      camera_ref: row.device_id,
      ts_photo_unix: toUnix(row.ts_photo),
      ts_tx_unix: toUnix(row.ts_tx),
      ts_sync_unix: toUnix(row.ts_sync),
      vendor_id: row.vendor_id,
      url,
      longitude: row.lon,
      latitude: row.lat,
      image_details: row.image_details || row.status_reason ? JSON.stringify({ ...row.image_details, ...(row.status_reason ? { error: row.status_reason } : {}) }) : null,
      annotations: JSON.stringify(row.annotations),
      status: row.status,
      deleted: row.deleted,
      filename: row.filename,
      hash: row.hash,
      bin_hash: row.bin_hash,
    },
    images: { thumb: row.thumb ? row.thumb.toString('base64') : null },
  };
}
