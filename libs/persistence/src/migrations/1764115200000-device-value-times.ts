import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * When each of a device's latest values was measured, so that a late uplink replaces a value only
 * when it is newer than that value (not merely newer than the device's last activity).
 */
export class DeviceValueTimes1764115200000 implements MigrationInterface {
  name = 'DeviceValueTimes1764115200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE devices ADD COLUMN battery_at timestamptz, ADD COLUMN temperature_at timestamptz, ADD COLUMN position_at timestamptz, ADD COLUMN firmware_at timestamptz`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE devices DROP COLUMN battery_at, DROP COLUMN temperature_at, DROP COLUMN position_at, DROP COLUMN firmware_at`);
  }
}
