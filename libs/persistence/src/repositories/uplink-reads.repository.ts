import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { StoredUplink } from '@dts/domain';
import { DataSource } from 'typeorm';

export interface UplinkRange {
  /** Inclusive bounds, unix seconds. */
  from: number | null;
  to: number | null;
  order: 'asc' | 'desc';
  /** null: the whole history. */
  limit: number | null;
}

/** One stored uplink with what its table row shows. */
export type UplinkRow = StoredUplink & { payload: Buffer };

/** Rows per query: memory holds one batch whatever the history's size. */
export const READ_BATCH = 2_000;

const COLUMNS = `u.uid::text AS uid, u.received_at, u.port, u.payload, u.sf, u.rssi, u.snr, u.geoloc_lat, u.geoloc_lon, u.geoloc_alt, u.decoded,
  u.valid, u.temperature, u.humidity, u.battery_voltage, u.battery_percent, u.lat, u.lon, u.alt, u.firmware_version, u.ts_device, u.ts_gps,
  u.api_ref, n.name AS network`;

/**
 * Reads a device's history in keyset batches ordered by (received_at, uid): each batch is one short
 * indexed query, so a long read holds no cursor, no transaction and no more than a batch in memory.
 */
@Injectable()
export class UplinkReadsRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  async *rows(deviceUid: number, range: UplinkRange): AsyncGenerator<UplinkRow[]> {
    const asc = range.order === 'asc';
    let after: { at: Date; uid: string } | null = null;
    let left = range.limit ?? Number.POSITIVE_INFINITY;
    while (left > 0) {
      const size = Math.min(READ_BATCH, left);
      const params: unknown[] = [deviceUid, range.from, range.to, size];
      let keyset = '';
      if (after) {
        params.push(after.at, after.uid);
        keyset = `AND (u.received_at, u.uid) ${asc ? '>' : '<'} ($5::timestamptz, $6::bigint)`;
      }
      const batch: UplinkRow[] = await this.ds.query(
        `SELECT ${COLUMNS} FROM uplinks u LEFT JOIN networks n ON n.uid = u.network_ref
         WHERE u.device_id = $1
           AND ($2::bigint IS NULL OR u.received_at >= to_timestamp($2::bigint))
           AND ($3::bigint IS NULL OR u.received_at < to_timestamp($3::bigint + 1))
           ${keyset}
         ORDER BY u.received_at ${asc ? 'ASC' : 'DESC'}, u.uid ${asc ? 'ASC' : 'DESC'}
         LIMIT $4`,
        params,
      );
      if (batch.length === 0) return;
      yield batch;
      if (batch.length < size) return;
      left -= batch.length;
      const last = batch[batch.length - 1];
      after = { at: last.received_at, uid: last.uid };
    }
  }

  /**
   * The device's uplinks with uid in (`after`, `upTo`], in uid order, in keyset batches. The live
   * feed reads by uid because, for one device, uids are drawn and committed in the same order (the
   * ingest transaction locks the device first): no row can appear later below a uid already read.
   */
  async *afterUid(deviceUid: number, after: string, upTo: string | null, batchSize = READ_BATCH): AsyncGenerator<UplinkRow[]> {
    let from = after;
    for (;;) {
      const batch: UplinkRow[] = await this.ds.query(
        `SELECT ${COLUMNS} FROM uplinks u LEFT JOIN networks n ON n.uid = u.network_ref
         WHERE u.device_id = $1 AND u.uid > $2::bigint AND ($3::bigint IS NULL OR u.uid <= $3::bigint)
         ORDER BY u.uid LIMIT $4`,
        [deviceUid, from, upTo, batchSize],
      );
      if (batch.length === 0) return;
      yield batch;
      if (batch.length < batchSize) return;
      from = batch[batch.length - 1].uid;
    }
  }

  /** The uid of the device's newest stored uplink ('0' when it has none). */
  async newestUid(deviceUid: number): Promise<string> {
    const rows: { uid: string | null }[] = await this.ds.query('SELECT max(uid)::text AS uid FROM uplinks WHERE device_id = $1', [deviceUid]);
    return rows[0]?.uid ?? '0';
  }

  /** The device's newest uplink, for decoding it again without storing. */
  async latest(deviceUid: number): Promise<UplinkRow | null> {
    const rows: UplinkRow[] = await this.ds.query(
      `SELECT ${COLUMNS} FROM uplinks u LEFT JOIN networks n ON n.uid = u.network_ref WHERE u.device_id = $1 ORDER BY u.received_at DESC, u.uid DESC LIMIT 1`,
      [deviceUid],
    );
    return rows[0] ?? null;
  }
}
