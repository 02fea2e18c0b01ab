import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The simulated network behaves like a class A device's network (docs/api.md §6): a downlink waits
 * in its queue (Scheduled) until the device's next uplink. At each uplink of a device on it the
 * ingestion asks for the device's queued and unacknowledged downlinks: this partial index holds just
 * those, however many commands the device has had. Its seeded description says so too.
 */
export class SimulatedNetworkQueue1795772000000 implements MigrationInterface {
  name = 'SimulatedNetworkQueue1795772000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE INDEX commands_simulated_queue ON commands (device_id, created_at, uid)
       WHERE network_ref = 1 AND (status = 'Scheduled' OR (status = 'Sent' AND confirmed))`,
    );
    await q.query(
      `UPDATE networks SET description = 'Built-in simulated LoRaWAN network, class A: a downlink waits in its queue until the device''s next uplink (Sent), a confirmed one is acknowledged by the uplink after. The default for new devices.' WHERE uid = 1`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX commands_simulated_queue`);
    await q.query(
      `UPDATE networks SET description = 'Built-in simulated LoRaWAN network: accepts every downlink at once. The default for new devices.' WHERE uid = 1`,
    );
  }
}
