import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

/**
 * What the networks' messages other than uplinks do to a device (docs/api.md §5): a join spans its
 * activity, a status moves its battery level and link margin, a solved position becomes the network position of
 * the uplink it was solved from. The battery follows the rule of `applyDeviceStatus` in
 * libs/domain device-metadata ("newer" as for uplinks), the margin that of `applyLinkMargin`.
 */
@Injectable()
export class DeviceEventsRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /** The device was active at `at` (a join): its activity times span it. */
  async activity(deviceUid: number, at: Date): Promise<void> {
    await this.ds.query(
      `UPDATE devices SET ts_activity_first = LEAST(ts_activity_first, $2), ts_activity_last = GREATEST(ts_activity_last, $2) WHERE uid = $1`,
      [deviceUid, at.toISOString()],
    );
  }

  /**
   * The device's own report of its status at `at` (a network's status message): the battery percent
   * replaces the device's when no earlier than the device's battery moment (which, as for uplinks,
   * only a voltage moves); the link margin when no earlier than the device's margin moment
   * (`applyDeviceStatus`, `applyLinkMargin` in libs/domain). Either may be absent (null).
   */
  async status(deviceUid: number, at: Date, report: { batteryPercent: number | null; marginDb: number | null }): Promise<void> {
    await this.ds.query(
      `UPDATE devices SET
         battery_percent = CASE WHEN $3::float8 IS NOT NULL AND $2::timestamptz >= coalesce(battery_at, '-infinity'::timestamptz) THEN $3 ELSE battery_percent END,
         margin_db = CASE WHEN $4::float8 IS NOT NULL AND $2::timestamptz >= coalesce(margin_at, '-infinity'::timestamptz) THEN $4 ELSE margin_db END,
         margin_at = CASE WHEN $4::float8 IS NOT NULL AND $2::timestamptz >= coalesce(margin_at, '-infinity'::timestamptz) THEN $2 ELSE margin_at END
       WHERE uid = $1`,
      [deviceUid, at.toISOString(), report.batteryPercent, report.marginDb],
    );
  }

  /**
   * Sets the network position of the device's uplink with `messageId` (the device's latest uplink
   * when null) and renews the device's data cache, whose rows show it. Answers whether an uplink
   * was found.
   */
  async networkPosition(deviceUid: number, messageId: string | null, position: { lat: number; lon: number; alt: number | null }): Promise<boolean> {
    const rows: { uid: string }[] = await this.ds.query(
      `WITH target AS (
         SELECT uid FROM uplinks
         WHERE device_id = $1 AND ($2::text IS NULL OR message_id = $2)
         ORDER BY received_at DESC, uid DESC LIMIT 1
       ),
       placed AS (
         UPDATE uplinks u SET geoloc_lat = $3, geoloc_lon = $4, geoloc_alt = $5 FROM target WHERE u.uid = target.uid RETURNING u.uid
       ),
       invalidated AS (
         INSERT INTO data_cache (device_id) SELECT $1 FROM placed
         ON CONFLICT (device_id) DO UPDATE SET version = data_cache.version + 1
       )
       SELECT uid::text AS uid FROM placed`,
      [deviceUid, messageId, position.lat, position.lon, position.alt],
    );
    return rows.length > 0;
  }
}
