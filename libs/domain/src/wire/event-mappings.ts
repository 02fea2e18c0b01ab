import { bytesToAscii, bytesToBase64, bytesToHex } from '../payload';
import { formatSqlTimestamp, toUnix } from '../time';
import type { AlertMailOutcomeWire, AlertMailState, AlertWire } from '../alerts/alert';
import type { RuleKind } from '../alerts/rule';
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
 * bodies) use, so that an event carries exactly what the matching route lists.
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

/**
 * A decided alert mail as stored: `sending` is counted against the hourly limits and being handed to
 * the mail transport (shown as `pending`); the other states are the wire's.
 */
export type StoredAlertMailState = 'sending' | Exclude<AlertMailState, 'pending'>;

export interface StoredAlert {
  uid: string;
  rule_id: number | null;
  rule_name: string;
  rule_kind: RuleKind;
  eui: string;
  message: string;
  details: Record<string, unknown>;
  raised_at: Date;
  cleared_at: Date | null;
  acknowledged_at: Date | null;
  /** The alert's mail flag: null when its rule wanted no mail. */
  mail_raised: boolean | null;
  /** The decision on each mail, null while none was taken. */
  mail_raised_state: StoredAlertMailState | null;
  mail_raised_reason: string | null;
  mail_cleared_state: StoredAlertMailState | null;
  mail_cleared_reason: string | null;
}

function mailOutcome(state: StoredAlertMailState | null, reason: string | null): AlertMailOutcomeWire {
  return state === null || state === 'sending' ? { state: 'pending', reason: null } : { state, reason };
}

export function toAlertWire(row: StoredAlert): AlertWire {
  return {
    uid: Number(row.uid),
    rule: { uid: row.rule_id, name: row.rule_name, kind: row.rule_kind },
    devEUI: row.eui,
    state: row.cleared_at === null ? 'active' : 'cleared',
    acknowledged: row.acknowledged_at !== null,
    message: row.message,
    details: row.details,
    raised_unix: toUnix(row.raised_at),
    cleared_unix: row.cleared_at === null ? null : toUnix(row.cleared_at),
    acknowledged_unix: row.acknowledged_at === null ? null : toUnix(row.acknowledged_at),
    mail:
      row.mail_raised === null
        ? null
        : {
            raised: mailOutcome(row.mail_raised_state, row.mail_raised_reason),
            cleared: row.cleared_at === null ? null : mailOutcome(row.mail_cleared_state, row.mail_cleared_reason),
          },
  };
}
