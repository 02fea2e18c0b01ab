import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Measurements } from '@dts/domain';
import { DataSource } from 'typeorm';
import { declaredColumn, MEASUREMENT_COLUMNS, sqlList } from './uplink-columns';

export interface UplinkPayloadRow {
  uid: string;
  /** received_at as PostgreSQL writes it (to the microsecond): with the uid, the row's key and the batch's keyset. */
  at: string;
  port: number;
  payload: Buffer;
}

/** Where the previous batch ended. */
export interface PayloadKey {
  at: string;
  uid: string;
}

/** A decoded record to write back: the decoder's output with the measurement columns. */
export type DecodedUpdate = {
  uid: string;
  at: string;
  decoded: Record<string, unknown>;
  valid: boolean;
  errors: string[] | null;
  warnings: string[] | null;
} & Measurements;

/**
 * Decoded records of one device ($2) written back, many rows in one statement: the decoder's
 * output and the measurement columns. Each row by its whole key, so that only its partition is
 * visited.
 */
export const APPLY_DECODED_SQL = `UPDATE uplinks u SET ${sqlList(['decoded = v.decoded', 'valid = v.valid', 'payload_errors = v.errors', 'payload_warnings = v.warnings', ...MEASUREMENT_COLUMNS.map((c) => `${c} = v.${c}`)])}
       FROM jsonb_to_recordset($1::jsonb) AS v(${sqlList(['uid bigint', 'at timestamptz', 'decoded jsonb', 'valid boolean', 'errors text[]', 'warnings text[]', ...MEASUREMENT_COLUMNS.map(declaredColumn)])})
       WHERE u.device_id = $2 AND u.received_at = v.at AND u.uid = v.uid`;

/** A device's uplinks after ($2, $3) in (received_at, uid) order: the primary key's order, partition by partition. */
export const PAYLOAD_BATCH_SQL = `SELECT u.uid::text AS uid, u.received_at::text AS at, u.port, u.payload FROM uplinks u
       WHERE u.device_id = $1 AND ($2::timestamptz IS NULL OR (u.received_at, u.uid) > ($2::timestamptz, $3::bigint))
       ORDER BY u.received_at, u.uid LIMIT $4`;

@Injectable()
export class UplinksRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /** The next uplinks of the device after `after` (null: from the oldest), in (received_at, uid) order (keyset pagination). */
  payloadBatch(deviceUid: number, after: PayloadKey | null, limit: number): Promise<UplinkPayloadRow[]> {
    // `u.uid`, not `uid`: a bare name in ORDER BY is the output column, the text one, where "10" < "9";
    // batches would then skip rows (seen: a re-decode of 30,000 uplinks stopped at 20,102).
    return this.ds.query(PAYLOAD_BATCH_SQL, [deviceUid, after?.at ?? null, after?.uid ?? null, limit]);
  }

  /** Writes decoded records of the device back, many rows in one statement (the rollups of the days they are in are built again). */
  async applyDecoded(deviceUid: number, updates: DecodedUpdate[]): Promise<void> {
    if (updates.length === 0) return;
    await this.ds.query(APPLY_DECODED_SQL, [JSON.stringify(updates), deviceUid]);
  }
}
