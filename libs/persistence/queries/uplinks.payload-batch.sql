SELECT u.uid::text AS uid, u.received_at::text AS at, u.port, u.payload FROM uplinks u
       WHERE u.device_id = $1 AND ($2::timestamptz IS NULL OR (u.received_at, u.uid) > ($2::timestamptz, $3::bigint))
       ORDER BY u.received_at, u.uid LIMIT $4;
