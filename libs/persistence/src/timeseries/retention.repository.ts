import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { returningRows } from '../sql/sql-results';
import { cutoffDay } from './partition-bounds';
import { type TimePartition, TimePartitionsRepository } from './time-partitions.repository';
import { TIMESERIES_SETTINGS, type TimeseriesSettings } from './timeseries-settings';

/** Rows one delete statement removes: a statement of tens of milliseconds, never a long hold. */
export const RETENTION_BATCH = 5_000;

/**
 * The SQL of a device's effective raw retention in days (null: kept): the shortest of its own
 * value, and its owner's value or else the platform's (`$1`). `least` skips nulls, and a null
 * here means "no limit", so it is the shortest limit that is set.
 */
const EFFECTIVE_DAYS = 'least(d.uplink_retention_days, coalesce(a.uplink_retention_days, $1::int))';

export interface RetentionPolicy {
  /** The platform's default (UPLINK_RETENTION_DAYS), null: kept. */
  platformDays: number | null;
  /** The longest retention any account has (its own or the platform's); null: some account keeps its uplinks. */
  longestDays: number | null;
}

/** A device's raw retention in days, null meaning "kept forever". */
export interface DeviceRetention {
  /** Its account's in force: the account's own value, else the platform's. */
  accountDays: number | null;
  /** The device's: its own where shorter than its account's. */
  effectiveDays: number | null;
}

/**
 * Removes what retention policies have passed (docs/api.md §5, "Retention"): raw uplinks (and the
 * gateways that heard them) by dropping whole partitions where every account's policy allows it,
 * and in RETENTION_BATCH-row statements for the devices whose policy is shorter; the hourly rollup
 * by partitions, the daily rollup in batches; images past IMAGE_RETENTION_DAYS are retired for
 * the image purge. Each device's `ts_data_first` moves to where its stored data now begins, and
 * its data cache's version moves on (a cached rendering holds removed rows).
 *
 * Cutoffs are UTC midnights (cutoffDay), as are partition bounds: an hour or a day of uplinks is
 * either all kept or all removed, so a rollup rebuilt from the uplinks (a re-decode) is whole.
 */
@Injectable()
export class RetentionRepository {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly partitions: TimePartitionsRepository,
    @Inject(TIMESERIES_SETTINGS) private readonly settings: TimeseriesSettings,
  ) {}

  /**
   * One device's retention (a primary-key look-up of it and its owner): the account's in force and
   * the effective one by the very expression the removal uses; null when the device is gone.
   */
  async ofDevice(deviceUid: number): Promise<DeviceRetention | null> {
    const [row]: DeviceRetention[] = await this.ds.query(
      `SELECT coalesce(a.uplink_retention_days, $1::int) AS "accountDays", ${EFFECTIVE_DAYS} AS "effectiveDays"
       FROM devices d JOIN accounts a ON a.id = d.owner_id WHERE d.uid = $2`,
      [this.settings.uplinkRetentionDays, deviceUid],
    );
    return row ?? null;
  }

  async policy(): Promise<RetentionPolicy> {
    const platformDays = this.settings.uplinkRetentionDays;
    const [row]: { keeps: boolean | null; longest: number | null }[] = await this.ds.query(
      `SELECT bool_or(coalesce(uplink_retention_days, $1::int) IS NULL) AS keeps, max(coalesce(uplink_retention_days, $1::int)) AS longest FROM accounts`,
      [platformDays],
    );
    // No account at all: the platform's value is the only policy.
    if (!row || row.keeps === null) return { platformDays, longestDays: platformDays };
    return { platformDays, longestDays: row.keeps ? null : row.longest };
  }

  /**
   * Drops the raw partitions every policy has passed (ending by the longest retention's cutoff),
   * the uplinks' and their gateways' together, then moves the devices' `ts_data_first`.
   */
  async dropExpiredRaw(now: Date, policy: RetentionPolicy): Promise<TimePartition[]> {
    if (policy.longestDays === null) return [];
    const cutoff = cutoffDay(now, policy.longestDays);
    const dropped = await this.partitions.dropEndingBy('uplinks', cutoff);
    await this.partitions.dropEndingBy('uplink_gateways', cutoff);
    const end = dropped.at(-1)?.to;
    if (end) await this.moveDataStart(null, end);
    return dropped;
  }

  /**
   * Deletes, in batches, the uplinks of devices whose retention is shorter than the longest (the
   * partitions that hold them also hold others' newer-kept rows), until `budgetMs` is spent.
   * Returns the uplinks removed; what is left waits for the next run.
   */
  async deleteExpiredRaw(now: Date, policy: RetentionPolicy, budgetMs: number): Promise<number> {
    const deadline = Date.now() + budgetMs;
    const today = cutoffDay(now, 0).toISOString();
    const devices: { uid: number; days: number }[] = await this.ds.query(
      `SELECT d.uid, ${EFFECTIVE_DAYS} AS days
       FROM devices d JOIN accounts a ON a.id = d.owner_id
       WHERE ${EFFECTIVE_DAYS} IS NOT NULL AND ($2::int IS NULL OR ${EFFECTIVE_DAYS} < $2::int)
         AND EXISTS (SELECT 1 FROM uplinks u WHERE u.device_id = d.uid AND u.received_at < $3::timestamptz - ${EFFECTIVE_DAYS} * interval '1 day')
       ORDER BY d.uid`,
      [policy.platformDays, policy.longestDays, today],
    );
    let removed = 0;
    for (const device of devices) {
      const cutoff = cutoffDay(now, device.days);
      for (;;) {
        if (Date.now() >= deadline) return removed;
        const n = await this.deleteBatch(device.uid, cutoff);
        removed += n;
        if (n < RETENTION_BATCH) break;
      }
      await this.moveDataStart(device.uid, cutoff);
    }
    return removed;
  }

  private async deleteBatch(deviceUid: number, cutoff: Date): Promise<number> {
    const [row]: { n: number }[] = await this.ds.query(
      `WITH doomed AS (
         SELECT device_id, received_at, uid FROM uplinks WHERE device_id = $1 AND received_at < $2 ORDER BY received_at LIMIT $3
       ),
       heard AS (
         DELETE FROM uplink_gateways g USING doomed x WHERE g.device_id = x.device_id AND g.received_at = x.received_at AND g.uplink_id = x.uid
       ),
       gone AS (
         DELETE FROM uplinks u USING doomed x WHERE u.device_id = x.device_id AND u.received_at = x.received_at AND u.uid = x.uid RETURNING 1
       )
       SELECT count(*)::int AS n FROM gone`,
      [deviceUid, cutoff.toISOString(), RETENTION_BATCH],
    );
    return row?.n ?? 0;
  }

  /**
   * The stored data of the device (every device with null) begins at `from` at the earliest:
   * `ts_data_first` moves there, or to null when its newest data is older; the data cache's version
   * moves on. In batches of devices, each its own short statement.
   */
  private async moveDataStart(deviceUid: number | null, from: Date): Promise<void> {
    for (;;) {
      const moved = await returningRows<{ uid: number }>(
        this.ds,
        `WITH target AS (
           SELECT uid FROM devices
           WHERE ($1::int IS NULL OR uid = $1) AND ts_data_first < $2
           ORDER BY uid LIMIT $3 FOR UPDATE
         ),
         moved AS (
           UPDATE devices d SET ts_data_first = CASE WHEN d.ts_data_last < $2 THEN NULL ELSE $2 END
           FROM target WHERE d.uid = target.uid RETURNING d.uid
         ),
         invalidated AS (
           INSERT INTO data_cache (device_id) SELECT uid FROM moved
           ON CONFLICT (device_id) DO UPDATE SET version = data_cache.version + 1
         )
         SELECT uid FROM moved`,
        [deviceUid, from.toISOString(), RETENTION_BATCH],
      );
      if (moved.length < RETENTION_BATCH) return;
    }
  }

  /** Drops the hourly rollup's partitions past its retention; deletes the daily rollup's rows past its own, in batches. */
  async expireRollups(now: Date, budgetMs: number): Promise<{ hourlyPartitions: number; dailyRows: number }> {
    const deadline = Date.now() + budgetMs;
    const hourlyDays = this.settings.hourlyRollupRetentionDays;
    const dailyDays = this.settings.dailyRollupRetentionDays;
    const hourly = hourlyDays === null ? [] : await this.partitions.dropEndingBy('uplink_rollups_hourly', cutoffDay(now, hourlyDays));
    let dailyRows = 0;
    while (dailyDays !== null && Date.now() < deadline) {
      const [row]: { n: number }[] = await this.ds.query(
        `WITH gone AS (
           DELETE FROM uplink_rollups_daily r USING (
             SELECT device_id, bucket FROM uplink_rollups_daily WHERE bucket < $1 ORDER BY bucket LIMIT $2
           ) x WHERE r.device_id = x.device_id AND r.bucket = x.bucket RETURNING 1)
         SELECT count(*)::int AS n FROM gone`,
        [cutoffDay(now, dailyDays).toISOString(), RETENTION_BATCH],
      );
      dailyRows += row?.n ?? 0;
      if ((row?.n ?? 0) < RETENTION_BATCH) break;
    }
    return { hourlyPartitions: hourly.length, dailyRows };
  }

  /** Marks deleted (for the image purge to remove their bytes) up to `limit` images photographed before the retention's cutoff. */
  async retireExpiredImages(now: Date, days: number, limit: number): Promise<number[]> {
    const rows = await returningRows<{ uid: number }>(
      this.ds,
      `UPDATE images SET deleted = 1 WHERE uid IN (
         SELECT uid FROM images WHERE deleted = 0 AND ts_photo < $1 ORDER BY ts_photo LIMIT $2
       ) RETURNING uid`,
      [cutoffDay(now, days).toISOString(), limit],
    );
    return rows.map((r) => r.uid);
  }
}
