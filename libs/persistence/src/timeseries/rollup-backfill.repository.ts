import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

/** Days of a device's uplinks rolled up per transaction: a short hold on the device's row (ingestion waits for it). */
export const BACKFILL_STEP_DAYS = 7;
const DAY_MS = 86_400_000;

/**
 * Rolls up the uplinks stored before the rollups were kept at ingestion (migration 1795830000000
 * lists each device that has some, with `until`: the time from which its rollups are complete).
 * A step rebuilds BACKFILL_STEP_DAYS before a device's `until` from its uplinks and moves `until`
 * back; a device whose `until` reaches its oldest uplink leaves the list. Nothing is added to the
 * list after the migration, so once it is empty it stays so.
 */
@Injectable()
export class RollupBackfillRepository {
  /** The list was found empty: it stays empty, and series reads stop asking. */
  private done = false;

  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /** The device's `until`, or null when its rollups are complete. */
  async until(deviceUid: number): Promise<Date | null> {
    if (this.done) return null;
    const rows: { until: Date; any: boolean }[] = await this.ds.query(
      `SELECT (SELECT until FROM rollup_backfill WHERE device_id = $1) AS until, EXISTS (SELECT 1 FROM rollup_backfill) AS any`,
      [deviceUid],
    );
    const row = rows[0];
    if (row && !row.any) this.done = true;
    return row?.until ?? null;
  }

  /** Devices still to roll up. */
  async pending(): Promise<number> {
    const [row]: { n: number }[] = await this.ds.query('SELECT count(*)::int AS n FROM rollup_backfill');
    return row?.n ?? 0;
  }

  /**
   * Steps through the list for up to `budgetMs`, newest stretches of the most recently heard
   * devices first (those a user is most likely to look at). Returns the steps taken.
   */
  async run(budgetMs: number): Promise<number> {
    const deadline = Date.now() + budgetMs;
    let steps = 0;
    while (Date.now() < deadline) {
      const [next]: { device_id: number; until: Date }[] = await this.ds.query(
        `SELECT b.device_id, b.until FROM rollup_backfill b LEFT JOIN devices d ON d.uid = b.device_id
         ORDER BY d.ts_activity_last DESC NULLS LAST, b.device_id LIMIT 1`,
      );
      if (!next) {
        this.done = true;
        return steps;
      }
      await this.step(next.device_id, next.until);
      steps++;
    }
    return steps;
  }

  /** One step: the BACKFILL_STEP_DAYS up to the device's newest uplink before `until` (a long silence is skipped at once). */
  private async step(deviceUid: number, until: Date): Promise<void> {
    await this.ds.transaction(async (m) => {
      const [newest]: { at: Date | null }[] = await m.query('SELECT max(received_at) AS at FROM uplinks WHERE device_id = $1 AND received_at < $2', [
        deviceUid,
        until.toISOString(),
      ]);
      if (!newest?.at) {
        await m.query('DELETE FROM rollup_backfill WHERE device_id = $1', [deviceUid]);
        return;
      }
      const to = new Date(Math.min(until.getTime(), (Math.floor(newest.at.getTime() / DAY_MS) + 1) * DAY_MS));
      const from = new Date(to.getTime() - BACKFILL_STEP_DAYS * DAY_MS);
      // uplink_rollups_rebuild takes the device's row lock first, as ingestion does.
      await m.query('SELECT uplink_rollups_rebuild($1, $2, $3)', [deviceUid, from.toISOString(), to.toISOString()]);
      await m.query('UPDATE rollup_backfill SET until = $2 WHERE device_id = $1', [deviceUid, from.toISOString()]);
    });
  }
}
