import { annotationsWire, type ImageDetailWire, toUnix } from '@dts/domain';
import type { ImageRow } from '@dts/persistence';

/** The list entry's mapping lives in libs/domain: image events carry exactly what the list shows. */
export { toImageListEntryWire } from '@dts/domain';

/**
 * The detail in the shape of docs/api.md §15: annotations and details as JSON strings, the thumbnail in Base64.
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
      image_details:
        row.image_details || row.status_reason ? JSON.stringify({ ...row.image_details, ...(row.status_reason ? { error: row.status_reason } : {}) }) : null,
      annotations: JSON.stringify(annotationsWire(row.annotations)),
      prediction: row.prediction,
      status: row.status,
      deleted: row.deleted,
      filename: row.filename,
      hash: row.hash,
      bin_hash: row.bin_hash,
    },
    images: { thumb: row.thumb ? row.thumb.toString('base64') : null },
  };
}
