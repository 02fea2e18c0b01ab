import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A device's commands waiting to leave (Created, Scheduled), newest first: the command list's
 * `status=Created,Scheduled` and the cancellation of every waiting command read them. The device's
 * index of all its commands would walk years of sent ones to find the few that wait; this partial
 * index holds just those.
 */
export class CommandsWaitingIndex1795800000000 implements MigrationInterface {
  name = 'CommandsWaitingIndex1795800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX commands_waiting ON commands (device_id, created_at DESC, uid DESC) WHERE status IN ('Created', 'Scheduled')`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX commands_waiting`);
  }
}
