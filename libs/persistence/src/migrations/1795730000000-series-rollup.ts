import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Hourly rollup of the series members (docs/api.md §5, GET /user/device/series), filled on read:
 * a series of 1 h or coarser buckets materializes the completed hours it covers the first time it
 * is asked for (SeriesRepository) and reads them back instead of aggregating every uplink again.
 * Ingestion is not changed; instead, every statement that inserts, updates (the re-decode job) or
 * deletes uplinks drops the rollup rows of the hours it touched, so that those hours are computed
 * from the uplinks again (and materialized anew by the next read). A row per device, hour and
 * member, `n` values (the member '' counts the hour's uplinks: a bucket whose uplinks lack every
 * requested member still answers), `total` their exact sum (numeric, so that an average from hourly
 * sums is the very average of the values), `lo`/`hi` the extremes. An hour is materialized for a
 * member when its row exists, with n = 0 for an hour without values.
 *
 * The drop takes a transaction-scoped advisory lock on the device in shared mode; materializing
 * takes it exclusively, so an uplink written while an hour is being materialized either is seen by
 * it (its transaction committed first) or drops the rows it wrote (it waits for the commit).
 */
/** The advisory lock's key this migration's trigger took (the series repository of its time held it too). */
const SERIES_ROLLUP_LOCK = 7201;

export class SeriesRollup1795730000000 implements MigrationInterface {
  name = 'SeriesRollup1795730000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE uplink_rollups (
        device_id integer NOT NULL REFERENCES devices(uid) ON DELETE CASCADE,
        hour      timestamptz NOT NULL,
        member    text NOT NULL,
        n         integer NOT NULL,
        total     numeric,
        lo        double precision,
        hi        double precision,
        PRIMARY KEY (device_id, hour, member)
      )`);
    await q.query(`
      CREATE FUNCTION uplink_rollups_forget() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        devices integer[];
        hours timestamptz[];
      BEGIN
        -- Only the branch for this operation is planned, so each names only its own transition tables.
        IF TG_OP = 'INSERT' THEN
          SELECT array_agg(c.device_id), array_agg(c.hour) INTO devices, hours FROM (
            SELECT DISTINCT device_id, date_bin('1 hour', received_at, timestamptz 'epoch') AS hour FROM rollup_new) c;
        ELSIF TG_OP = 'DELETE' THEN
          SELECT array_agg(c.device_id), array_agg(c.hour) INTO devices, hours FROM (
            SELECT DISTINCT device_id, date_bin('1 hour', received_at, timestamptz 'epoch') AS hour FROM rollup_old) c;
        ELSE
          SELECT array_agg(c.device_id), array_agg(c.hour) INTO devices, hours FROM (
            SELECT DISTINCT device_id, date_bin('1 hour', received_at, timestamptz 'epoch') AS hour
            FROM (SELECT device_id, received_at FROM rollup_old UNION ALL SELECT device_id, received_at FROM rollup_new) u) c;
        END IF;
        IF devices IS NULL THEN
          RETURN NULL;
        END IF;
        PERFORM pg_advisory_xact_lock_shared(${SERIES_ROLLUP_LOCK}, d) FROM (SELECT DISTINCT unnest(devices) AS d ORDER BY 1) l;
        DELETE FROM uplink_rollups r USING unnest(devices, hours) AS c(device_id, hour)
        WHERE r.device_id = c.device_id AND r.hour = c.hour;
        RETURN NULL;
      END $$`);
    await q.query(`
      CREATE TRIGGER uplinks_forget_rollups_insert AFTER INSERT ON uplinks
      REFERENCING NEW TABLE AS rollup_new FOR EACH STATEMENT EXECUTE FUNCTION uplink_rollups_forget()`);
    await q.query(`
      CREATE TRIGGER uplinks_forget_rollups_update AFTER UPDATE ON uplinks
      REFERENCING OLD TABLE AS rollup_old NEW TABLE AS rollup_new FOR EACH STATEMENT EXECUTE FUNCTION uplink_rollups_forget()`);
    await q.query(`
      CREATE TRIGGER uplinks_forget_rollups_delete AFTER DELETE ON uplinks
      REFERENCING OLD TABLE AS rollup_old FOR EACH STATEMENT EXECUTE FUNCTION uplink_rollups_forget()`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const op of ['insert', 'update', 'delete']) await q.query(`DROP TRIGGER IF EXISTS uplinks_forget_rollups_${op} ON uplinks`);
    await q.query(`DROP FUNCTION IF EXISTS uplink_rollups_forget()`);
    await q.query(`DROP TABLE IF EXISTS uplink_rollups`);
  }
}
