import type { DataSource } from 'typeorm';
import { eventually } from '@dts/platform';

/**
 * Waits until the event router has routed every event in the outbox (uplinks, commands, images,
 * alerts): from then on, the deliveries and alert states those events lead to are all written. A
 * test that asserts something was NOT queued (a filtered device, another account, a disabled
 * integration) waits for this instead of for a while.
 */
export async function allEventsRouted(ds: DataSource, timeoutMs = 10_000): Promise<void> {
  await eventually(
    async () => {
      const waiting = Number((await ds.query(`SELECT count(*) AS n FROM events WHERE routed_at IS NULL`))[0].n);
      if (waiting > 0) throw new Error(`${waiting} event(s) not routed yet`);
    },
    { what: 'every event to be routed', timeoutMs },
  );
}
