import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * When the device's signal (signal_dbm, signal_percent) was heard, so that it is the last known one:
 * an uplink without radio data (a REST item without RSSI) leaves it, and a late uplink does not
 * move it backwards. Until now the signal followed the latest uplink, so that uplink's time is the
 * signal's.
 */
export class DeviceSignalTime1795720000000 implements MigrationInterface {
  name = 'DeviceSignalTime1795720000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE devices ADD COLUMN signal_at timestamptz`);
    await q.query(`UPDATE devices SET signal_at = ts_activity_last WHERE signal_dbm IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE devices DROP COLUMN signal_at`);
  }
}
