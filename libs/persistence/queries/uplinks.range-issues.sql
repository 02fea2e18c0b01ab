-- issues errors
SELECT u.uid::text AS uid, u.received_at, u.port, u.payload, u.sf, u.rssi, u.snr, u.decoded, u.valid, u.payload_errors,
       u.payload_warnings, u.lat, u.lon, u.alt, u.geoloc_lat, u.geoloc_lon, u.geoloc_alt, u.temperature, u.humidity,
       u.battery_voltage, u.battery_percent, u.firmware_version, u.ts_device, u.ts_gps, u.api_ref, n.name AS network
       FROM uplinks u LEFT JOIN networks n ON n.uid = u.network_ref
         WHERE u.device_id = $1
           AND ($2::bigint IS NULL OR u.received_at >= to_timestamp($2::bigint))
           AND ($3::bigint IS NULL OR u.received_at < to_timestamp($3::bigint + 1))
           AND (u.payload_errors IS NOT NULL OR u.payload_warnings IS NOT NULL) AND u.payload_errors IS NOT NULL
           AND (u.received_at, u.uid) > ($5::timestamptz, $6::bigint)
         ORDER BY u.received_at ASC, u.uid ASC
         LIMIT $4;

-- issues warnings
SELECT u.uid::text AS uid, u.received_at, u.port, u.payload, u.sf, u.rssi, u.snr, u.decoded, u.valid, u.payload_errors,
       u.payload_warnings, u.lat, u.lon, u.alt, u.geoloc_lat, u.geoloc_lon, u.geoloc_alt, u.temperature, u.humidity,
       u.battery_voltage, u.battery_percent, u.firmware_version, u.ts_device, u.ts_gps, u.api_ref, n.name AS network
       FROM uplinks u LEFT JOIN networks n ON n.uid = u.network_ref
         WHERE u.device_id = $1
           AND ($2::bigint IS NULL OR u.received_at >= to_timestamp($2::bigint))
           AND ($3::bigint IS NULL OR u.received_at < to_timestamp($3::bigint + 1))
           AND (u.payload_errors IS NOT NULL OR u.payload_warnings IS NOT NULL) AND u.payload_warnings IS NOT NULL
           AND (u.received_at, u.uid) > ($5::timestamptz, $6::bigint)
         ORDER BY u.received_at ASC, u.uid ASC
         LIMIT $4;

-- issues any
SELECT u.uid::text AS uid, u.received_at, u.port, u.payload, u.sf, u.rssi, u.snr, u.decoded, u.valid, u.payload_errors,
       u.payload_warnings, u.lat, u.lon, u.alt, u.geoloc_lat, u.geoloc_lon, u.geoloc_alt, u.temperature, u.humidity,
       u.battery_voltage, u.battery_percent, u.firmware_version, u.ts_device, u.ts_gps, u.api_ref, n.name AS network
       FROM uplinks u LEFT JOIN networks n ON n.uid = u.network_ref
         WHERE u.device_id = $1
           AND ($2::bigint IS NULL OR u.received_at >= to_timestamp($2::bigint))
           AND ($3::bigint IS NULL OR u.received_at < to_timestamp($3::bigint + 1))
           AND (u.payload_errors IS NOT NULL OR u.payload_warnings IS NOT NULL)
           AND (u.received_at, u.uid) > ($5::timestamptz, $6::bigint)
         ORDER BY u.received_at ASC, u.uid ASC
         LIMIT $4;

-- issues none
SELECT u.uid::text AS uid, u.received_at, u.port, u.payload, u.sf, u.rssi, u.snr, u.decoded, u.valid, u.payload_errors,
       u.payload_warnings, u.lat, u.lon, u.alt, u.geoloc_lat, u.geoloc_lon, u.geoloc_alt, u.temperature, u.humidity,
       u.battery_voltage, u.battery_percent, u.firmware_version, u.ts_device, u.ts_gps, u.api_ref, n.name AS network
       FROM uplinks u LEFT JOIN networks n ON n.uid = u.network_ref
         WHERE u.device_id = $1
           AND ($2::bigint IS NULL OR u.received_at >= to_timestamp($2::bigint))
           AND ($3::bigint IS NULL OR u.received_at < to_timestamp($3::bigint + 1))
           AND u.payload_errors IS NULL AND u.payload_warnings IS NULL
           AND (u.received_at, u.uid) > ($5::timestamptz, $6::bigint)
         ORDER BY u.received_at ASC, u.uid ASC
         LIMIT $4;
