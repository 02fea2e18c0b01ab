-- order asc
SELECT count(*)::int AS count,
         string_agg('{"uid":' || b.uid
           || ',"ts_unix":' || floor(extract(epoch FROM x.at))::bigint
           || ',"time_stamp":"' || to_char(x.at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS') || '+00:00"'
           || ',"humidity":' || CASE WHEN x.humidity IS NULL OR x.humidity IN ('NaN', 'Infinity', '-Infinity') THEN 'null' WHEN x.humidity IN ('0', '-0') THEN '0' ELSE x.humidity END
           || ',"temperature":' || CASE WHEN x.temperature IS NULL OR x.temperature IN ('NaN', 'Infinity', '-Infinity') THEN 'null' WHEN x.temperature IN ('0', '-0') THEN '0' ELSE x.temperature END
           || ',"battery":' || CASE WHEN x.battery_voltage IS NULL OR x.battery_voltage IN ('NaN', 'Infinity', '-Infinity') THEN 'null' WHEN x.battery_voltage IN ('0', '-0') THEN '0' ELSE x.battery_voltage END
           || CASE WHEN b.geoloc_lat IS NULL OR b.geoloc_lon IS NULL THEN '' ELSE ',"geoloc_LAT":' || CASE WHEN x.geoloc_lat IS NULL OR x.geoloc_lat IN ('NaN', 'Infinity', '-Infinity') THEN 'null' WHEN x.geoloc_lat IN ('0', '-0') THEN '0' ELSE x.geoloc_lat END || ',"geoloc_LON":' || CASE WHEN x.geoloc_lon IS NULL OR x.geoloc_lon IN ('NaN', 'Infinity', '-Infinity') THEN 'null' WHEN x.geoloc_lon IN ('0', '-0') THEN '0' ELSE x.geoloc_lon END || CASE WHEN b.geoloc_alt IS NULL THEN '' ELSE ',"geoloc_ALT":' || CASE WHEN x.geoloc_alt IS NULL OR x.geoloc_alt IN ('NaN', 'Infinity', '-Infinity') THEN 'null' WHEN x.geoloc_alt IN ('0', '-0') THEN '0' ELSE x.geoloc_alt END END END || '}', ',' ORDER BY b.received_at ASC, b.uid::bigint ASC) AS json,
         coalesce(bool_and(strpos(concat(x.humidity, x.temperature, x.battery_voltage, x.geoloc_lat, x.geoloc_lon, x.geoloc_alt), 'e') = 0
           AND extract(year FROM x.at AT TIME ZONE 'UTC') BETWEEN 1000 AND 9999
           AND b.uid::bigint < 9007199254740992), true) AS exact,
         (array_agg(b.received_at::text ORDER BY b.received_at DESC, b.uid::bigint DESC))[1] AS last_at,
         (array_agg(b.uid ORDER BY b.received_at DESC, b.uid::bigint DESC))[1] AS last_uid
       FROM (SELECT u.uid::text AS uid, u.received_at, u.ts_device, u.humidity, u.temperature, u.battery_voltage, u.geoloc_lat,
       u.geoloc_lon, u.geoloc_alt
       FROM uplinks u
         WHERE u.device_id = $1
           AND ($2::bigint IS NULL OR u.received_at >= to_timestamp($2::bigint))
           AND ($3::bigint IS NULL OR u.received_at < to_timestamp($3::bigint + 1))
         ORDER BY u.received_at ASC, u.uid ASC
         LIMIT $4) b,
       LATERAL (SELECT coalesce(b.ts_device, b.received_at) AS at, b.humidity::text AS humidity,
                       b.temperature::text AS temperature, b.battery_voltage::text AS battery_voltage,
                       b.geoloc_lat::text AS geoloc_lat, b.geoloc_lon::text AS geoloc_lon,
                       b.geoloc_alt::text AS geoloc_alt) x;

-- order asc, after a keyset
SELECT count(*)::int AS count,
         string_agg('{"uid":' || b.uid
           || ',"ts_unix":' || floor(extract(epoch FROM x.at))::bigint
           || ',"time_stamp":"' || to_char(x.at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS') || '+00:00"'
           || ',"humidity":' || CASE WHEN x.humidity IS NULL OR x.humidity IN ('NaN', 'Infinity', '-Infinity') THEN 'null' WHEN x.humidity IN ('0', '-0') THEN '0' ELSE x.humidity END
           || ',"temperature":' || CASE WHEN x.temperature IS NULL OR x.temperature IN ('NaN', 'Infinity', '-Infinity') THEN 'null' WHEN x.temperature IN ('0', '-0') THEN '0' ELSE x.temperature END
           || ',"battery":' || CASE WHEN x.battery_voltage IS NULL OR x.battery_voltage IN ('NaN', 'Infinity', '-Infinity') THEN 'null' WHEN x.battery_voltage IN ('0', '-0') THEN '0' ELSE x.battery_voltage END
           || CASE WHEN b.geoloc_lat IS NULL OR b.geoloc_lon IS NULL THEN '' ELSE ',"geoloc_LAT":' || CASE WHEN x.geoloc_lat IS NULL OR x.geoloc_lat IN ('NaN', 'Infinity', '-Infinity') THEN 'null' WHEN x.geoloc_lat IN ('0', '-0') THEN '0' ELSE x.geoloc_lat END || ',"geoloc_LON":' || CASE WHEN x.geoloc_lon IS NULL OR x.geoloc_lon IN ('NaN', 'Infinity', '-Infinity') THEN 'null' WHEN x.geoloc_lon IN ('0', '-0') THEN '0' ELSE x.geoloc_lon END || CASE WHEN b.geoloc_alt IS NULL THEN '' ELSE ',"geoloc_ALT":' || CASE WHEN x.geoloc_alt IS NULL OR x.geoloc_alt IN ('NaN', 'Infinity', '-Infinity') THEN 'null' WHEN x.geoloc_alt IN ('0', '-0') THEN '0' ELSE x.geoloc_alt END END END || '}', ',' ORDER BY b.received_at ASC, b.uid::bigint ASC) AS json,
         coalesce(bool_and(strpos(concat(x.humidity, x.temperature, x.battery_voltage, x.geoloc_lat, x.geoloc_lon, x.geoloc_alt), 'e') = 0
           AND extract(year FROM x.at AT TIME ZONE 'UTC') BETWEEN 1000 AND 9999
           AND b.uid::bigint < 9007199254740992), true) AS exact,
         (array_agg(b.received_at::text ORDER BY b.received_at DESC, b.uid::bigint DESC))[1] AS last_at,
         (array_agg(b.uid ORDER BY b.received_at DESC, b.uid::bigint DESC))[1] AS last_uid
       FROM (SELECT u.uid::text AS uid, u.received_at, u.ts_device, u.humidity, u.temperature, u.battery_voltage, u.geoloc_lat,
       u.geoloc_lon, u.geoloc_alt
       FROM uplinks u
         WHERE u.device_id = $1
           AND ($2::bigint IS NULL OR u.received_at >= to_timestamp($2::bigint))
           AND ($3::bigint IS NULL OR u.received_at < to_timestamp($3::bigint + 1))
           AND (u.received_at, u.uid) > ($5::timestamptz, $6::bigint)
         ORDER BY u.received_at ASC, u.uid ASC
         LIMIT $4) b,
       LATERAL (SELECT coalesce(b.ts_device, b.received_at) AS at, b.humidity::text AS humidity,
                       b.temperature::text AS temperature, b.battery_voltage::text AS battery_voltage,
                       b.geoloc_lat::text AS geoloc_lat, b.geoloc_lon::text AS geoloc_lon,
                       b.geoloc_alt::text AS geoloc_alt) x;

-- order desc
SELECT count(*)::int AS count,
         string_agg('{"uid":' || b.uid
           || ',"ts_unix":' || floor(extract(epoch FROM x.at))::bigint
           || ',"time_stamp":"' || to_char(x.at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS') || '+00:00"'
           || ',"humidity":' || CASE WHEN x.humidity IS NULL OR x.humidity IN ('NaN', 'Infinity', '-Infinity') THEN 'null' WHEN x.humidity IN ('0', '-0') THEN '0' ELSE x.humidity END
           || ',"temperature":' || CASE WHEN x.temperature IS NULL OR x.temperature IN ('NaN', 'Infinity', '-Infinity') THEN 'null' WHEN x.temperature IN ('0', '-0') THEN '0' ELSE x.temperature END
           || ',"battery":' || CASE WHEN x.battery_voltage IS NULL OR x.battery_voltage IN ('NaN', 'Infinity', '-Infinity') THEN 'null' WHEN x.battery_voltage IN ('0', '-0') THEN '0' ELSE x.battery_voltage END
           || CASE WHEN b.geoloc_lat IS NULL OR b.geoloc_lon IS NULL THEN '' ELSE ',"geoloc_LAT":' || CASE WHEN x.geoloc_lat IS NULL OR x.geoloc_lat IN ('NaN', 'Infinity', '-Infinity') THEN 'null' WHEN x.geoloc_lat IN ('0', '-0') THEN '0' ELSE x.geoloc_lat END || ',"geoloc_LON":' || CASE WHEN x.geoloc_lon IS NULL OR x.geoloc_lon IN ('NaN', 'Infinity', '-Infinity') THEN 'null' WHEN x.geoloc_lon IN ('0', '-0') THEN '0' ELSE x.geoloc_lon END || CASE WHEN b.geoloc_alt IS NULL THEN '' ELSE ',"geoloc_ALT":' || CASE WHEN x.geoloc_alt IS NULL OR x.geoloc_alt IN ('NaN', 'Infinity', '-Infinity') THEN 'null' WHEN x.geoloc_alt IN ('0', '-0') THEN '0' ELSE x.geoloc_alt END END END || '}', ',' ORDER BY b.received_at DESC, b.uid::bigint DESC) AS json,
         coalesce(bool_and(strpos(concat(x.humidity, x.temperature, x.battery_voltage, x.geoloc_lat, x.geoloc_lon, x.geoloc_alt), 'e') = 0
           AND extract(year FROM x.at AT TIME ZONE 'UTC') BETWEEN 1000 AND 9999
           AND b.uid::bigint < 9007199254740992), true) AS exact,
         (array_agg(b.received_at::text ORDER BY b.received_at ASC, b.uid::bigint ASC))[1] AS last_at,
         (array_agg(b.uid ORDER BY b.received_at ASC, b.uid::bigint ASC))[1] AS last_uid
       FROM (SELECT u.uid::text AS uid, u.received_at, u.ts_device, u.humidity, u.temperature, u.battery_voltage, u.geoloc_lat,
       u.geoloc_lon, u.geoloc_alt
       FROM uplinks u
         WHERE u.device_id = $1
           AND ($2::bigint IS NULL OR u.received_at >= to_timestamp($2::bigint))
           AND ($3::bigint IS NULL OR u.received_at < to_timestamp($3::bigint + 1))
         ORDER BY u.received_at DESC, u.uid DESC
         LIMIT $4) b,
       LATERAL (SELECT coalesce(b.ts_device, b.received_at) AS at, b.humidity::text AS humidity,
                       b.temperature::text AS temperature, b.battery_voltage::text AS battery_voltage,
                       b.geoloc_lat::text AS geoloc_lat, b.geoloc_lon::text AS geoloc_lon,
                       b.geoloc_alt::text AS geoloc_alt) x;

-- order desc, after a keyset
SELECT count(*)::int AS count,
         string_agg('{"uid":' || b.uid
           || ',"ts_unix":' || floor(extract(epoch FROM x.at))::bigint
           || ',"time_stamp":"' || to_char(x.at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS') || '+00:00"'
           || ',"humidity":' || CASE WHEN x.humidity IS NULL OR x.humidity IN ('NaN', 'Infinity', '-Infinity') THEN 'null' WHEN x.humidity IN ('0', '-0') THEN '0' ELSE x.humidity END
           || ',"temperature":' || CASE WHEN x.temperature IS NULL OR x.temperature IN ('NaN', 'Infinity', '-Infinity') THEN 'null' WHEN x.temperature IN ('0', '-0') THEN '0' ELSE x.temperature END
           || ',"battery":' || CASE WHEN x.battery_voltage IS NULL OR x.battery_voltage IN ('NaN', 'Infinity', '-Infinity') THEN 'null' WHEN x.battery_voltage IN ('0', '-0') THEN '0' ELSE x.battery_voltage END
           || CASE WHEN b.geoloc_lat IS NULL OR b.geoloc_lon IS NULL THEN '' ELSE ',"geoloc_LAT":' || CASE WHEN x.geoloc_lat IS NULL OR x.geoloc_lat IN ('NaN', 'Infinity', '-Infinity') THEN 'null' WHEN x.geoloc_lat IN ('0', '-0') THEN '0' ELSE x.geoloc_lat END || ',"geoloc_LON":' || CASE WHEN x.geoloc_lon IS NULL OR x.geoloc_lon IN ('NaN', 'Infinity', '-Infinity') THEN 'null' WHEN x.geoloc_lon IN ('0', '-0') THEN '0' ELSE x.geoloc_lon END || CASE WHEN b.geoloc_alt IS NULL THEN '' ELSE ',"geoloc_ALT":' || CASE WHEN x.geoloc_alt IS NULL OR x.geoloc_alt IN ('NaN', 'Infinity', '-Infinity') THEN 'null' WHEN x.geoloc_alt IN ('0', '-0') THEN '0' ELSE x.geoloc_alt END END END || '}', ',' ORDER BY b.received_at DESC, b.uid::bigint DESC) AS json,
         coalesce(bool_and(strpos(concat(x.humidity, x.temperature, x.battery_voltage, x.geoloc_lat, x.geoloc_lon, x.geoloc_alt), 'e') = 0
           AND extract(year FROM x.at AT TIME ZONE 'UTC') BETWEEN 1000 AND 9999
           AND b.uid::bigint < 9007199254740992), true) AS exact,
         (array_agg(b.received_at::text ORDER BY b.received_at ASC, b.uid::bigint ASC))[1] AS last_at,
         (array_agg(b.uid ORDER BY b.received_at ASC, b.uid::bigint ASC))[1] AS last_uid
       FROM (SELECT u.uid::text AS uid, u.received_at, u.ts_device, u.humidity, u.temperature, u.battery_voltage, u.geoloc_lat,
       u.geoloc_lon, u.geoloc_alt
       FROM uplinks u
         WHERE u.device_id = $1
           AND ($2::bigint IS NULL OR u.received_at >= to_timestamp($2::bigint))
           AND ($3::bigint IS NULL OR u.received_at < to_timestamp($3::bigint + 1))
           AND (u.received_at, u.uid) < ($5::timestamptz, $6::bigint)
         ORDER BY u.received_at DESC, u.uid DESC
         LIMIT $4) b,
       LATERAL (SELECT coalesce(b.ts_device, b.received_at) AS at, b.humidity::text AS humidity,
                       b.temperature::text AS temperature, b.battery_voltage::text AS battery_voltage,
                       b.geoloc_lat::text AS geoloc_lat, b.geoloc_lon::text AS geoloc_lon,
                       b.geoloc_alt::text AS geoloc_alt) x;
