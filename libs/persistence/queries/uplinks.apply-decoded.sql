UPDATE uplinks u SET decoded = v.decoded, valid = v.valid, payload_errors = v.errors, payload_warnings = v.warnings,
              lat = v.lat, lon = v.lon, alt = v.alt, temperature = v.temperature, humidity = v.humidity,
              battery_voltage = v.battery_voltage, battery_percent = v.battery_percent,
              firmware_version = v.firmware_version
       FROM jsonb_to_recordset($1::jsonb) AS v(uid bigint, at timestamptz, decoded jsonb, valid boolean, errors text[], warnings text[],
              lat double precision, lon double precision, alt double precision, temperature double precision,
              humidity double precision, battery_voltage double precision, battery_percent double precision,
              firmware_version text)
       WHERE u.device_id = $2 AND u.received_at = v.at AND u.uid = v.uid;
