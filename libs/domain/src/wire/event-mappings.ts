import { bytesToAscii, bytesToBase64, bytesToHex } from '../payload';
import { formatSqlTimestamp, toUnix } from '../time';
import type { CommandStatus, CommandWire } from './command';
import {
  annotationsWire,
  type ImageGalleryEntryWire,
  type ImageListEntryWire,
  type ImagePredictionWire,
  type ImageStatus,
  type StoredAnnotation,
} from './image';

/**
 * Mappings from stored rows to the wire that both the api (responses) and the worker (event
 * bodies) use, so that an event carries exactly what the matching route lists. An alert's is in
 * alerts/alert-mapping.ts, beside its wire type (wire/ imports no domain folder: docs/architecture.md).
 */

/** A stored command as the mappings read it (the persistence row has this shape). */
export interface StoredCommand {
  uid: number;
  eui: string;
  created_at: Date;
  status: CommandStatus;
  network: string | null;
  confirmed: boolean;
  port: number;
  payload: Uint8Array;
  reason: string | null;
}

/** The payload in all three encodings at once, as the spec shows commands. */
export function toCommandWire(row: StoredCommand): CommandWire {
  return {
    uid: row.uid,
    time_stamp: formatSqlTimestamp(row.created_at),
    status: row.status,
    network: row.network ?? 'unknown',
    devEUI: row.eui,
    confirmed: row.confirmed ? 1 : 0,
    port: row.port,
    payload_base64: bytesToBase64(row.payload),
    payload_hex: bytesToHex(row.payload),
    payload_ASCII: bytesToAscii(row.payload),
    reason: row.reason,
  };
}

export interface StoredImage {
  hash: string;
  ts_photo: Date;
  ts_tx: Date;
  ts_sync: Date;
  lat: number | null;
  lon: number | null;
  annotations: StoredAnnotation[];
  prediction: ImagePredictionWire | null;
  status: ImageStatus;
  filename: string;
}

export function toImageListEntryWire(row: StoredImage): ImageListEntryWire {
  return {
    hash: row.hash,
    ts_photo_unix: toUnix(row.ts_photo),
    ts_tx_unix: toUnix(row.ts_tx),
    ts_sync_unix: toUnix(row.ts_sync),
    lat: row.lat,
    lon: row.lon,
    annotations: annotationsWire(row.annotations),
    prediction: row.prediction,
    status: row.status,
    filename: row.filename,
  };
}

/** GET /user/image's entry, and the live feeds' `event: image` (with `deleted`). */
export function toImageGalleryEntryWire(row: StoredImage & { eui: string }): ImageGalleryEntryWire {
  return { devEUI: row.eui, ...toImageListEntryWire(row) };
}
