import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Lanes shared fairly per account, and redeliveries that cannot be overwritten (docs/architecture.md
 * "Lanes, leases and fairness", docs/api.md §18).
 *
 * - `integration_lanes.account_id`: the integration's account, so that claiming due lanes can go
 *   account by account (`integration_lanes_account_due`: each account's earliest due lane is the
 *   first entry of its part of the index) instead of oldest first, which let one account's backlog
 *   take every worker's lanes. It replaces the index on `next_at` alone, which nothing reads now.
 * - `held_until`, `lease`: a claim says who holds the lane until when. A lane in backoff and a lane
 *   being sent both had `next_at` ahead, so a redelivery made a held lane due and a second worker
 *   sent it beside the first; and a holder whose lease had lapsed could release over its successor.
 * - `redelivered` (lanes and deliveries): counts the account's redelivery requests. The release of a
 *   lane and the record of a failed attempt compare it with what they read before the attempt: a
 *   request that came meanwhile keeps the delivery due now instead of the failure's backoff. A count,
 *   not a flag: whoever reads it needs to know whether a request came after its own read, and
 *   clearing a flag would lose one that came in between.
 */
export class DeliveryFairness1795810000000 implements MigrationInterface {
  name = 'DeliveryFairness1795810000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE integration_lanes ADD COLUMN account_id integer`);
    await q.query(`UPDATE integration_lanes l SET account_id = i.account_id FROM integrations i WHERE i.uid = l.integration_id`);
    // A lane of an integration gone (deleted between its lanes' writes) has nothing to send.
    await q.query(`DELETE FROM integration_lanes WHERE account_id IS NULL`);
    await q.query(`ALTER TABLE integration_lanes ALTER COLUMN account_id SET NOT NULL`);
    await q.query(`ALTER TABLE integration_lanes ADD COLUMN held_until timestamptz`);
    await q.query(`ALTER TABLE integration_lanes ADD COLUMN lease bigint NOT NULL DEFAULT 0`);
    await q.query(`ALTER TABLE integration_lanes ADD COLUMN redelivered bigint NOT NULL DEFAULT 0`);
    await q.query(`ALTER TABLE integration_deliveries ADD COLUMN redelivered integer NOT NULL DEFAULT 0`);
    await q.query(`CREATE INDEX integration_lanes_account_due ON integration_lanes (account_id, next_at) WHERE next_at IS NOT NULL`);
    await q.query(`DROP INDEX integration_lanes_due_idx`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX integration_lanes_due_idx ON integration_lanes (next_at) WHERE next_at IS NOT NULL`);
    await q.query(`DROP INDEX integration_lanes_account_due`);
    await q.query(`ALTER TABLE integration_deliveries DROP COLUMN redelivered`);
    for (const column of ['redelivered', 'lease', 'held_until', 'account_id']) await q.query(`ALTER TABLE integration_lanes DROP COLUMN ${column}`);
  }
}
