import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Telemetry that lasts for years (docs/architecture.md, "Time-series storage").
 *
 * 1. `uplinks` and `uplink_gateways` become partitioned by RANGE (received_at): the time the uplink
 *    was received (the network's reception time when it gives one, else the service's), which every
 *    read filters on, so reads visit only the partitions of their range, and whole months leave by
 *    dropping a partition. The existing table is not copied: it becomes the first partition,
 *    `<table>_history`, for everything before the month after both now and its newest row (B);
 *    the worker adds the partitions from B on, ahead of time (TimePartitionsRepository). Attaching
 *    builds the new indexes over the existing rows: the time the table is locked, in the README's
 *    upgrade note.
 * 2. Keys: a partitioned table's unique indexes must hold the partition column; they also hold the
 *    device (the distribution column a Citus layout needs, docs/scaling.md). The primary key is the
 *    reads' index (device_id, received_at, uid); the uid keeps an index of its own (the live feed and
 *    the outbox read by uid); a redelivery is refused by (device_id, message_id, received_at), and by
 *    the ingestion statement's look-back for a message id whose time is the service's.
 * 3. No foreign key from `uplinks`/`uplink_gateways` to `devices`: dropping a partition would have to
 *    take a lock on `devices`, which every ingestion writes; a device's uplinks are removed by its
 *    purge (DevicesRepository.purgeBatch) instead of a cascade.
 * 4. Rollups kept up by every insert, not on read: `uplink_rollups_hourly` (partitioned like the
 *    uplinks, by bucket) and `uplink_rollups_daily`, one row per device and bucket: `n` the uplinks,
 *    `m` per member `[values, exact sum, min, max]` (the member keys of series.sql.ts: a column's
 *    name, or `decoded.<alias>` for a data type of the decoded payload). A statement-level trigger
 *    adds each statement's rows, whatever wrote them (ingestion, COPY, a script); an update of
 *    uplinks (a re-decode, a network position) builds the days it touched again from the uplinks.
 *    Deleting uplinks leaves the rollups: they outlive the raw rows (retention), and go with their
 *    device. The uplinks stored before this migration are rolled up by the worker, device by
 *    device, newest first (`rollup_backfill`); until a device's row is gone, a series reads the
 *    uplinks for the time before its `until`.
 * 5. Retention: a value per account (set by an administrator) and per device (set shorter by its
 *    owner), beside the platform's UPLINK_RETENTION_DAYS; images leave oldest photograph first.
 *
 * The old rollup, filled on read, and its triggers go.
 */
export class TimePartitions1795830000000 implements MigrationInterface {
  name = 'TimePartitions1795830000000';

  async up(q: QueryRunner): Promise<void> {
    for (const op of ['insert', 'update', 'delete']) await q.query(`DROP TRIGGER IF EXISTS uplinks_forget_rollups_${op} ON uplinks`);
    await q.query(`DROP FUNCTION IF EXISTS uplink_rollups_forget()`);
    await q.query(`DROP TABLE IF EXISTS uplink_rollups`);
    await q.query(`DROP TRIGGER IF EXISTS uplinks_capture_events ON uplinks`);

    // B: the first month boundary after both now and the newest uplink (which may be a day ahead).
    const [{ bound }] = (await q.query(
      `SELECT (date_trunc('month', greatest(now(), (SELECT max(received_at) FROM uplinks)), 'UTC') + interval '1 month')::text AS bound`,
    )) as [{ bound: string }];

    // --- uplinks ---
    await q.query(`ALTER TABLE uplink_gateways DROP CONSTRAINT IF EXISTS uplink_gateways_uplink_id_fkey`);
    await q.query(`ALTER TABLE uplinks RENAME TO uplinks_history`);
    await q.query(`ALTER TABLE uplinks_history DROP CONSTRAINT uplinks_pkey`);
    await q.query(`ALTER TABLE uplinks_history DROP CONSTRAINT uplinks_device_id_fkey`);
    await q.query(`DROP INDEX uplinks_device_time_idx`);
    await q.query(`DROP INDEX uplinks_message_idx`);
    await q.query(`CREATE TABLE uplinks (LIKE uplinks_history INCLUDING DEFAULTS INCLUDING CONSTRAINTS) PARTITION BY RANGE (received_at)`);
    await q.query(`ALTER SEQUENCE uplinks_uid_seq OWNED BY uplinks.uid`);
    await q.query(`ALTER TABLE uplinks ADD CONSTRAINT uplinks_pkey PRIMARY KEY (device_id, received_at, uid)`);
    await q.query(`ALTER TABLE uplinks ADD CONSTRAINT uplinks_network_ref_fkey FOREIGN KEY (network_ref) REFERENCES networks(uid) ON DELETE SET NULL`);
    await q.query(`CREATE INDEX uplinks_uid_idx ON uplinks (uid)`);
    await q.query(`CREATE UNIQUE INDEX uplinks_message_idx ON uplinks (device_id, message_id, received_at) WHERE message_id IS NOT NULL`);
    await q.query(
      `CREATE INDEX uplinks_problems_idx ON uplinks (device_id, received_at, uid) WHERE payload_errors IS NOT NULL OR payload_warnings IS NOT NULL`,
    );
    await q.query(`ALTER TABLE uplinks ATTACH PARTITION uplinks_history FOR VALUES FROM (MINVALUE) TO ('${bound}')`);

    // --- the gateways that heard them, partitioned alike ---
    await q.query(`ALTER TABLE uplink_gateways RENAME TO uplink_gateways_history`);
    await q.query(`ALTER TABLE uplink_gateways_history DROP CONSTRAINT uplink_gateways_pkey`);
    await q.query(`DROP INDEX uplink_gateways_device_time_idx`);
    await q.query(`CREATE TABLE uplink_gateways (LIKE uplink_gateways_history INCLUDING DEFAULTS INCLUDING CONSTRAINTS) PARTITION BY RANGE (received_at)`);
    await q.query(`ALTER TABLE uplink_gateways ADD CONSTRAINT uplink_gateways_pkey PRIMARY KEY (device_id, received_at, uplink_id, gateway_id)`);
    await q.query(`ALTER TABLE uplink_gateways ATTACH PARTITION uplink_gateways_history FOR VALUES FROM (MINVALUE) TO ('${bound}')`);

    // --- rollups ---
    await q.query(`
      CREATE TABLE uplink_rollups_hourly (
        device_id integer NOT NULL,
        bucket    timestamptz NOT NULL,
        n         integer NOT NULL,
        m         jsonb NOT NULL,
        PRIMARY KEY (device_id, bucket)
      ) PARTITION BY RANGE (bucket)`);
    await q.query(`CREATE TABLE uplink_rollups_hourly_history PARTITION OF uplink_rollups_hourly FOR VALUES FROM (MINVALUE) TO ('${bound}')`);
    await q.query(`
      CREATE TABLE uplink_rollups_daily (
        device_id integer NOT NULL,
        bucket    timestamptz NOT NULL,
        n         integer NOT NULL,
        m         jsonb NOT NULL,
        PRIMARY KEY (device_id, bucket)
      )`);
    await q.query(`CREATE INDEX uplink_rollups_daily_bucket_idx ON uplink_rollups_daily (bucket)`);

    // An uplink's members as rollup keys and values: the columns a series reads, and the numbers of
    // the decoded payload named by a data type that has no column (series.sql.ts, seriesMemberKey).
    await q.query(`
      CREATE FUNCTION uplink_rollup_members(u uplinks) RETURNS TABLE (key text, v double precision) LANGUAGE sql STABLE AS $$
        SELECT c.key, c.v FROM (VALUES
          ('temperature', u.temperature), ('humidity', u.humidity), ('battery_voltage', u.battery_voltage),
          ('battery_percent', u.battery_percent), ('lat', u.lat), ('lon', u.lon), ('alt', u.alt),
          ('geoloc_lat', u.geoloc_lat), ('geoloc_lon', u.geoloc_lon), ('geoloc_alt', u.geoloc_alt),
          ('rssi', u.rssi), ('snr', u.snr), ('sf', u.sf::double precision)) AS c(key, v)
        WHERE c.v IS NOT NULL
        UNION ALL
        SELECT 'decoded.' || e.key, (e.value #>> '{}')::double precision
        FROM jsonb_each(CASE WHEN jsonb_typeof(u.decoded) = 'object' THEN u.decoded END) AS e
        WHERE jsonb_typeof(e.value) = 'number'
          AND e.key IN (SELECT alias FROM data_types)
          AND e.key NOT IN ('temperature', 'humidity', 'battery_voltage', 'battery', 'battery_percent', 'LAT', 'LON', 'ALT',
                            'geoloc_LAT', 'geoloc_LON', 'geoloc_ALT', 'RSSI', 'SNR', 'SF')
      $$`);
    // Two buckets' members as one: counts and exact sums add, extremes widen.
    await q.query(`
      CREATE FUNCTION uplink_rollup_merge(a jsonb, b jsonb) RETURNS jsonb LANGUAGE sql IMMUTABLE AS $$
        SELECT a || coalesce(jsonb_object_agg(e.k, CASE WHEN a ? e.k THEN jsonb_build_array(
                 (a -> e.k ->> 0)::bigint + (e.v ->> 0)::bigint,
                 (a -> e.k ->> 1)::numeric + (e.v ->> 1)::numeric,
                 least((a -> e.k ->> 2)::double precision, (e.v ->> 2)::double precision),
                 greatest((a -> e.k ->> 3)::double precision, (e.v ->> 3)::double precision)) ELSE e.v END), '{}'::jsonb)
        FROM jsonb_each(b) AS e(k, v)
      $$`);
    // The aggregate over the uplinks `x` of `source` (a transition table, or the table itself with a
    // condition on x), one row per device and bucket of `width`, as text to run: written once for
    // the trigger's inserts and for rebuilding. `x` keeps the uplinks' row type for the members.
    const bucketRows = (source: string, where: string, width: string) => `
      SELECT b.device_id, b.bucket, b.n, coalesce(s.m, '{}'::jsonb) AS m
      FROM (SELECT x.device_id, date_bin('${width}', x.received_at, timestamptz 'epoch') AS bucket, count(*)::int AS n
            FROM ${source} x ${where} GROUP BY 1, 2) b
      LEFT JOIN (
        SELECT device_id, bucket, jsonb_object_agg(key, jsonb_build_array(n, s, lo, hi)) AS m FROM (
          SELECT x.device_id, date_bin('${width}', x.received_at, timestamptz 'epoch') AS bucket, k.key,
                 count(*) AS n, sum(k.v::numeric) AS s, min(k.v) AS lo, max(k.v) AS hi
          FROM ${source} x CROSS JOIN LATERAL uplink_rollup_members(x) k ${where} GROUP BY 1, 2, 3) y
        GROUP BY 1, 2) s USING (device_id, bucket)
      ORDER BY 1, 2`;
    const add = (table: string, width: string) => `
        INSERT INTO ${table} AS t (device_id, bucket, n, m)
        ${bucketRows('rollup_new', '', width)}
        ON CONFLICT (device_id, bucket) DO UPDATE SET n = t.n + excluded.n, m = uplink_rollup_merge(t.m, excluded.m);`;
    await q.query(`
      CREATE FUNCTION uplink_rollups_add() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        ${add('uplink_rollups_hourly', '1 hour')}
        ${add('uplink_rollups_daily', '1 day')}
        RETURN NULL;
      END $$`);
    // The hours and days of [p_from, p_to) (whole UTC days) of one device, built again from its
    // uplinks. Under the device's row lock, which ingestion takes first too: a rebuild and a
    // delivery for the device never interleave.
    const rebuild = (table: string, width: string) => `
        DELETE FROM ${table} WHERE device_id = p_device AND bucket >= p_from AND bucket < p_to;
        INSERT INTO ${table} (device_id, bucket, n, m)
        ${bucketRows('uplinks', 'WHERE x.device_id = p_device AND x.received_at >= p_from AND x.received_at < p_to', width)};`;
    await q.query(`
      CREATE FUNCTION uplink_rollups_rebuild(p_device integer, p_from timestamptz, p_to timestamptz) RETURNS void LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM 1 FROM devices WHERE uid = p_device FOR UPDATE;
        ${rebuild('uplink_rollups_hourly', '1 hour')}
        ${rebuild('uplink_rollups_daily', '1 day')}
      END $$`);
    await q.query(`
      CREATE FUNCTION uplink_rollups_touched() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM uplink_rollups_rebuild(t.device_id, t.day, t.day + interval '1 day')
        FROM (SELECT DISTINCT device_id, date_bin('1 day', received_at, timestamptz 'epoch') AS day
              FROM (SELECT device_id, received_at FROM rollup_old UNION ALL SELECT device_id, received_at FROM rollup_new) c
              ORDER BY 1, 2) t;
        RETURN NULL;
      END $$`);
    await q.query(
      `CREATE TRIGGER uplinks_rollups_insert AFTER INSERT ON uplinks REFERENCING NEW TABLE AS rollup_new FOR EACH STATEMENT EXECUTE FUNCTION uplink_rollups_add()`,
    );
    await q.query(
      `CREATE TRIGGER uplinks_rollups_update AFTER UPDATE ON uplinks REFERENCING OLD TABLE AS rollup_old NEW TABLE AS rollup_new FOR EACH STATEMENT EXECUTE FUNCTION uplink_rollups_touched()`,
    );
    await q.query(
      `CREATE TRIGGER uplinks_capture_events AFTER INSERT ON uplinks REFERENCING NEW TABLE AS events_new_uplinks FOR EACH STATEMENT EXECUTE FUNCTION events_capture_uplinks()`,
    );

    // The uplinks stored so far, rolled up by the worker (RollupBackfillRepository), newest first.
    await q.query(`CREATE TABLE rollup_backfill (device_id integer PRIMARY KEY, until timestamptz NOT NULL)`);
    await q.query(`
      INSERT INTO rollup_backfill (device_id, until)
      SELECT DISTINCT device_id, date_trunc('day', now(), 'UTC') + interval '1 day' FROM uplinks_history`);

    // Each device's newest uplink uid, kept by ingestion: max(uid) of one device over every
    // partition became a backward scan of each partition's uid index that a device absent from an
    // old partition reads whole.
    await q.query(`ALTER TABLE devices ADD COLUMN last_uplink_uid bigint`);
    await q.query(`
      UPDATE devices d SET last_uplink_uid = m.uid
      FROM (SELECT device_id, max(uid) AS uid FROM uplinks_history GROUP BY device_id) m
      WHERE d.uid = m.device_id`);

    // --- retention ---
    await q.query(`ALTER TABLE accounts ADD COLUMN uplink_retention_days integer CHECK (uplink_retention_days > 0)`);
    await q.query(`ALTER TABLE devices ADD COLUMN uplink_retention_days integer CHECK (uplink_retention_days > 0)`);
    // IMAGE_RETENTION_DAYS retires the oldest photographs first.
    await q.query(`CREATE INDEX images_photo_live_idx ON images (ts_photo) WHERE deleted = 0`);
  }

  async down(): Promise<void> {
    // The partitioned layout cannot be turned back into one table without copying every row.
    throw new Error('TimePartitions1795830000000 cannot be reverted: restore the database from before the upgrade');
  }
}
