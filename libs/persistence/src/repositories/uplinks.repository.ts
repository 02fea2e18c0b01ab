import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Measurements } from '@dts/domain';
import { DataSource } from 'typeorm';

export interface UplinkPayloadRow {
  uid: string;
  port: number;
  payload: Buffer;
}

/** A decoded record to write back: the decoder's output with the measurement columns. */
export type DecodedUpdate = { uid: string; decoded: Record<string, unknown>; valid: boolean; error: string | null } & Measurements;

@Injectable()
export class UplinksRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /** The next uplinks of the device after `afterUid`, in uid order (keyset pagination). */
  payloadBatch(deviceUid: number, afterUid: string, limit: number): Promise<UplinkPayloadRow[]> {
    // `u.uid`, not `uid`: a bare name in ORDER BY is the output column, the text one, where "10" < "9";
    // batches would then skip rows (seen: a re-decode of 30,000 uplinks stopped at 20,102).
    return this.ds.query('SELECT u.uid::text AS uid, u.port, u.payload FROM uplinks u WHERE u.device_id = $1 AND u.uid > $2 ORDER BY u.uid LIMIT $3', [deviceUid, afterUid, limit]);
  }

  /** Writes decoded records back, many rows in one statement. */
  async applyDecoded(updates: DecodedUpdate[]): Promise<void> {
    if (updates.length === 0) return;
    await this.ds.query(
      `UPDATE uplinks u SET decoded = v.decoded, valid = v.valid, decode_error = v.error, temperature = v.temperature,
              humidity = v.humidity, battery_voltage = v.battery_voltage, battery_percent = v.battery_percent,
              lat = v.lat, lon = v.lon, alt = v.alt, firmware_version = v.firmware_version
       FROM jsonb_to_recordset($1::jsonb) AS v(uid bigint, decoded jsonb, valid boolean, error text, temperature double precision,
              humidity double precision, battery_voltage double precision, battery_percent double precision,
              lat double precision, lon double precision, alt double precision, firmware_version text)
       WHERE u.uid = v.uid`,
      [JSON.stringify(updates)],
    );
  }
}
