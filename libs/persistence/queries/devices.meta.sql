SELECT d.uid, d.eui, d.owner_id, d.user_ref, d.label, d.folder, d.tags, d.type_ref, d.decoder_ref, d.network_ref,
       d.icon_ref, d.installation_lat, d.installation_lon, d.lat, d.lon, d.alt, d.battery_percent, d.battery_voltage,
       d.temperature_dc, d.signal_percent, d.signal_dbm, d.margin_db, d.firmware_version, d.ts_activity_first,
       d.ts_activity_last, d.ts_data_first, d.ts_data_last, d.uplink_retention_days, a.username AS owner_username,
       nt.type AS network_type, a.uplink_retention_days AS account_retention_days
  FROM devices d
  JOIN accounts a ON a.id = d.owner_id
  LEFT JOIN networks n ON n.uid = d.network_ref
  LEFT JOIN network_types nt ON nt.uid = n.type_ref;
