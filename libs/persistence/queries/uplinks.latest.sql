SELECT u.uid::text AS uid, u.received_at, u.port, u.payload, u.sf, u.rssi, u.snr, u.decoded, u.valid, u.payload_errors,
       u.payload_warnings, u.lat, u.lon, u.alt, u.geoloc_lat, u.geoloc_lon, u.geoloc_alt, u.temperature, u.humidity,
       u.battery_voltage, u.battery_percent, u.firmware_version, u.ts_device, u.ts_gps, u.api_ref, n.name AS network
       FROM uplinks u LEFT JOIN networks n ON n.uid = u.network_ref WHERE u.device_id = $1 ORDER BY u.received_at DESC, u.uid DESC LIMIT 1;
