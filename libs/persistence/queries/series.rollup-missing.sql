SELECT extract(epoch FROM g)::bigint AS hour
FROM generate_series(to_timestamp($2), to_timestamp($3) - interval '1 hour', interval '1 hour') AS g
LEFT JOIN (SELECT r.hour, count(*) AS n FROM uplink_rollups r
           WHERE r.device_id = $1 AND r.hour >= to_timestamp($2) AND r.hour < to_timestamp($3) AND r.member = ANY($4::text[])
           GROUP BY r.hour) d ON d.hour = g
WHERE d.n IS DISTINCT FROM 4
ORDER BY 1;
