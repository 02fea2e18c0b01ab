import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Measurements } from '@dts/domain';
import { DataSource } from 'typeorm';
import { declaredColumn, MEASUREMENT_COLUMNS, sqlList } from './uplink-columns';

export interface UplinkPayloadRow {
  uid: string;
  port: number;
  payload: Buffer;
}

/** A decoded record to write back: the decoder's output with the measurement columns. */
export type DecodedUpdate = {
  uid: string;
  decoded: Record<string, unknown>;
  valid: boolean;
  errors: string[] | null;
  warnings: string[] | null;
} & Measurements;

/** Decoded records written back, many rows in one statement: the decoder's output and the measurement columns. */
export const APPLY_DECODED_SQL = `UPDATE uplinks u SET ${sqlList(['decoded = v.decoded', 'valid = v.valid', 'payload_errors = v.errors', 'payload_warnings = v.warnings', ...MEASUREMENT_COLUMNS.map((c) => `${c} = v.${c}`)])}
       FROM jsonb_to_recordset($1::jsonb) AS v(${sqlList(['uid bigint', 'decoded jsonb', 'valid boolean', 'errors text[]', 'warnings text[]', ...MEASUREMENT_COLUMNS.map(declaredColumn)])})
       WHERE u.uid = v.uid`;

export const PAYLOAD_BATCH_SQL = 'SELECT u.uid::text AS uid, u.port, u.payload FROM uplinks u WHERE u.device_id = $1 AND u.uid > $2 ORDER BY u.uid LIMIT $3';

@Injectable()
export class UplinksRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /** The next uplinks of the device after `afterUid`, in uid order (keyset pagination). */
  payloadBatch(deviceUid: number, afterUid: string, limit: number): Promise<UplinkPayloadRow[]> {
    // `u.uid`, not `uid`: a bare name in ORDER BY is the output column, the text one, where "10" < "9";
    // batches would then skip rows (seen: a re-decode of 30,000 uplinks stopped at 20,102).
    return this.ds.query(PAYLOAD_BATCH_SQL, [deviceUid, afterUid, limit]);
  }

  /** Writes decoded records back, many rows in one statement. */
  async applyDecoded(updates: DecodedUpdate[]): Promise<void> {
    if (updates.length === 0) return;
    await this.ds.query(APPLY_DECODED_SQL, [JSON.stringify(updates)]);
  }
}
