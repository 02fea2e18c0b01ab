INSERT INTO uplink_rollups (device_id, hour, member, n, total, lo, hi)
SELECT $1, h.hour, p.member, p.n, p.total, p.lo, p.hi
FROM generate_series(to_timestamp($2), to_timestamp($3) - interval '1 hour', interval '1 hour') AS h(hour)
CROSS JOIN LATERAL (
  SELECT count(*) AS n_all, count(v0) AS n0, sum(v0::numeric) AS s0, min(v0) AS lo0, max(v0) AS hi0, count(v1) AS n1, sum(v1::numeric) AS s1, min(v1) AS lo1, max(v1) AS hi1, count(v2) AS n2, sum(v2::numeric) AS s2, min(v2) AS lo2, max(v2) AS hi2
  FROM uplinks u CROSS JOIN LATERAL (SELECT u.temperature AS v0, u.humidity AS v1, CASE WHEN jsonb_typeof(u.decoded -> $5::text) = 'number' THEN (u.decoded ->> $5::text)::float8 END AS v2) v
  WHERE u.device_id = $1 AND u.received_at >= h.hour AND u.received_at < h.hour + interval '1 hour'
) a
CROSS JOIN LATERAL (VALUES ($6::text, a.n_all, NULL::numeric, NULL::float8, NULL::float8), ($7::text, a.n0, a.s0, a.lo0, a.hi0), ($8::text, a.n1, a.s1, a.lo1, a.hi1), ($9::text, a.n2, a.s2, a.lo2, a.hi2)) AS p(member, n, total, lo, hi)
WHERE (SELECT count(*) FROM uplink_rollups r WHERE r.device_id = $1 AND r.hour = h.hour AND r.member = ANY($4::text[])) < 4
ON CONFLICT (device_id, hour, member) DO NOTHING;
