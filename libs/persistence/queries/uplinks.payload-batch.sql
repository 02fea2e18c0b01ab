SELECT u.uid::text AS uid, u.port, u.payload FROM uplinks u WHERE u.device_id = $1 AND u.uid > $2 ORDER BY u.uid LIMIT $3;
