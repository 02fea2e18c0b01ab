WITH locked AS (
         -- The devices still live, locked: a device deleted since its look-up (on another instance,
         -- before this process heard of it) takes no uplink, and a deletion in flight is waited for.
         SELECT uid FROM devices WHERE uid = ANY($2::int[]) AND deleted_at IS NULL ORDER BY uid FOR UPDATE
       ),
       input AS MATERIALIZED (
         -- The uncorrelated sub-select is a one-time filter, run before the first row: every device
         -- is locked before the first nextval.
         SELECT nextval('uplinks_uid_seq') AS uid, v.*
         FROM jsonb_to_recordset($1::jsonb) AS v(ord int, device_id integer, received_at timestamptz, network_ref integer, message_id text, port smallint,
              fcnt bigint, payload text, sf smallint, rssi double precision, snr double precision,
              geoloc_lat double precision, geoloc_lon double precision, geoloc_alt double precision, decoded jsonb,
              valid boolean, payload_errors text[], payload_warnings text[], temperature double precision,
              humidity double precision, battery_voltage double precision, battery_percent double precision,
              lat double precision, lon double precision, alt double precision, firmware_version text,
              ts_device timestamptz, ts_gps timestamptz, api_ref integer, simulated boolean, has_data boolean,
              temperature_dc double precision, has_position boolean, signal_percent double precision)
         WHERE (SELECT count(*) FROM locked) >= 0
       ),
       inserted AS (
         INSERT INTO uplinks (uid, device_id, received_at, network_ref, message_id, port, fcnt, payload, sf, rssi, snr,
                              geoloc_lat, geoloc_lon, geoloc_alt, decoded, valid, payload_errors, payload_warnings,
                              temperature, humidity, battery_voltage, battery_percent, lat, lon, alt, firmware_version,
                              ts_device, ts_gps, api_ref, simulated)
         SELECT uid, device_id, received_at, network_ref, message_id, port, fcnt, decode(payload, 'hex'), sf, rssi, snr,
                geoloc_lat, geoloc_lon, geoloc_alt, decoded, valid, payload_errors, payload_warnings, temperature,
                humidity, battery_voltage, battery_percent, lat, lon, alt, firmware_version, ts_device, ts_gps, api_ref,
                simulated
         FROM input i
         -- A redelivery whose time is the service's (no time of the network's in it) is not the
         -- same row: it is found by its message id among the device's uplinks of those days.
         WHERE i.device_id IN (SELECT uid FROM locked) AND (i.message_id IS NULL OR NOT EXISTS (
           SELECT 1 FROM uplinks x
           WHERE x.device_id = i.device_id AND x.message_id = i.message_id
             AND x.received_at >= i.received_at - interval '7 days' AND x.received_at <= i.received_at + interval '7 days'))
         ON CONFLICT (device_id, message_id, received_at) WHERE message_id IS NOT NULL DO NOTHING
         RETURNING uid
       ),
       fresh AS (
         SELECT i.* FROM input i JOIN inserted USING (uid)
       ),
       heard AS (
         INSERT INTO uplink_gateways (uplink_id, device_id, gateway_id, network_ref, received_at, rssi, snr, lat, lon)
         SELECT f.uid, f.device_id, g.gateway_id, f.network_ref, f.received_at, g.rssi, g.snr, g.lat, g.lon
         FROM jsonb_to_recordset($3::jsonb) AS g(ord int, gateway_id text, rssi double precision, snr double precision, lat double precision,
              lon double precision)
         JOIN fresh f ON f.ord = g.ord
       ),
       updated AS (
         UPDATE devices d SET
           ts_activity_first = LEAST(d.ts_activity_first, v.activity_first),
           ts_activity_last = GREATEST(d.ts_activity_last, v.activity_last),
           ts_data_first = LEAST(d.ts_data_first, v.data_first),
           ts_data_last = GREATEST(d.ts_data_last, v.data_last),
           battery_voltage = CASE WHEN v.battery_voltage IS NOT NULL AND v.battery_voltage_at >= coalesce(d.battery_at, '-infinity'::timestamptz) THEN v.battery_voltage ELSE d.battery_voltage END,
           battery_percent = CASE WHEN v.battery_percent IS NOT NULL AND v.battery_percent_at >= coalesce(d.battery_at, '-infinity'::timestamptz) THEN v.battery_percent ELSE d.battery_percent END,
           battery_at = CASE WHEN v.battery_voltage IS NOT NULL AND v.battery_voltage_at >= coalesce(d.battery_at, '-infinity'::timestamptz) THEN v.battery_voltage_at ELSE d.battery_at END,
           temperature_dc = CASE WHEN v.temperature_dc IS NOT NULL AND v.temperature_at >= coalesce(d.temperature_at, '-infinity'::timestamptz) THEN v.temperature_dc ELSE d.temperature_dc END,
           temperature_at = CASE WHEN v.temperature_dc IS NOT NULL AND v.temperature_at >= coalesce(d.temperature_at, '-infinity'::timestamptz) THEN v.temperature_at ELSE d.temperature_at END,
           lat = CASE WHEN v.lat IS NOT NULL AND v.position_at >= coalesce(d.position_at, '-infinity'::timestamptz) THEN v.lat ELSE d.lat END,
           lon = CASE WHEN v.lon IS NOT NULL AND v.position_at >= coalesce(d.position_at, '-infinity'::timestamptz) THEN v.lon ELSE d.lon END,
           alt = CASE WHEN v.lat IS NOT NULL AND v.position_at >= coalesce(d.position_at, '-infinity'::timestamptz) THEN v.alt ELSE d.alt END,
           position_at = CASE WHEN v.lat IS NOT NULL AND v.position_at >= coalesce(d.position_at, '-infinity'::timestamptz) THEN v.position_at ELSE d.position_at END,
           firmware_version = CASE WHEN v.firmware_version IS NOT NULL AND v.firmware_at >= coalesce(d.firmware_at, '-infinity'::timestamptz) THEN v.firmware_version ELSE d.firmware_version END,
           firmware_at = CASE WHEN v.firmware_version IS NOT NULL AND v.firmware_at >= coalesce(d.firmware_at, '-infinity'::timestamptz) THEN v.firmware_at ELSE d.firmware_at END,
           signal_dbm = CASE WHEN v.signal_dbm IS NOT NULL AND v.signal_at >= coalesce(d.signal_at, '-infinity'::timestamptz) THEN v.signal_dbm ELSE d.signal_dbm END,
           signal_percent = CASE WHEN v.signal_dbm IS NOT NULL AND v.signal_at >= coalesce(d.signal_at, '-infinity'::timestamptz) THEN v.signal_percent ELSE d.signal_percent END,
           signal_at = CASE WHEN v.signal_dbm IS NOT NULL AND v.signal_at >= coalesce(d.signal_at, '-infinity'::timestamptz) THEN v.signal_at ELSE d.signal_at END,
           last_uplink_uid = GREATEST(d.last_uplink_uid, v.newest_uid)
         FROM (
           SELECT device_id,
                  min(received_at) AS activity_first,
                  max(received_at) AS activity_last,
                  min(received_at) FILTER (WHERE has_data) AS data_first,
                  max(received_at) FILTER (WHERE has_data) AS data_last,
                  (array_agg(battery_voltage ORDER BY received_at DESC, ord DESC) FILTER (WHERE battery_voltage IS NOT NULL))[1] AS battery_voltage,
                  max(received_at) FILTER (WHERE battery_voltage IS NOT NULL) AS battery_voltage_at,
                  (array_agg(battery_percent ORDER BY received_at DESC, ord DESC) FILTER (WHERE battery_percent IS NOT NULL))[1] AS battery_percent,
                  max(received_at) FILTER (WHERE battery_percent IS NOT NULL) AS battery_percent_at,
                  (array_agg(temperature_dc ORDER BY received_at DESC, ord DESC) FILTER (WHERE temperature_dc IS NOT NULL))[1] AS temperature_dc,
                  max(received_at) FILTER (WHERE temperature_dc IS NOT NULL) AS temperature_at,
                  (array_agg(lat ORDER BY received_at DESC, ord DESC) FILTER (WHERE has_position))[1] AS lat,
                  (array_agg(lon ORDER BY received_at DESC, ord DESC) FILTER (WHERE has_position))[1] AS lon,
                  (array_agg(alt ORDER BY received_at DESC, ord DESC) FILTER (WHERE has_position))[1] AS alt,
                  max(received_at) FILTER (WHERE has_position) AS position_at,
                  (array_agg(firmware_version ORDER BY received_at DESC, ord DESC) FILTER (WHERE firmware_version IS NOT NULL))[1] AS firmware_version,
                  max(received_at) FILTER (WHERE firmware_version IS NOT NULL) AS firmware_at,
                  (array_agg(rssi ORDER BY received_at DESC, ord DESC) FILTER (WHERE rssi IS NOT NULL))[1] AS signal_dbm,
                  (array_agg(signal_percent ORDER BY received_at DESC, ord DESC) FILTER (WHERE rssi IS NOT NULL))[1] AS signal_percent,
                  max(received_at) FILTER (WHERE rssi IS NOT NULL) AS signal_at,
                  max(uid) AS newest_uid
           FROM fresh GROUP BY device_id
         ) v
         WHERE d.uid = v.device_id
       ),
       -- Every device that received data has a newer cache version: a cached rendering is stale now.
       invalidated AS (
         INSERT INTO data_cache (device_id) SELECT DISTINCT device_id FROM fresh
         ON CONFLICT (device_id) DO UPDATE SET version = data_cache.version + 1
       )
       -- Each new row with its uid; each uplink of a device gone with a null uid; redeliveries not at all.
       SELECT ord, uid::text AS uid, device_id FROM fresh
       UNION ALL
       SELECT ord, NULL, device_id FROM input WHERE device_id NOT IN (SELECT uid FROM locked);
