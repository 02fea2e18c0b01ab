WITH parts AS (
  SELECT date_bin(make_interval(secs => $2), u.received_at, to_timestamp(0)) AS b, count(*) AS n_all, count(v0) AS n0, sum(v0::numeric) AS s0, min(v0) AS lo0, max(v0) AS hi0, count(v1) AS n1, sum(v1::numeric) AS s1, min(v1) AS lo1, max(v1) AS hi1, count(v2) AS n2, sum(v2::numeric) AS s2, min(v2) AS lo2, max(v2) AS hi2
  FROM uplinks u CROSS JOIN LATERAL (SELECT u.temperature AS v0, u.humidity AS v1, CASE WHEN jsonb_typeof(u.decoded -> $3::text) = 'number' THEN (u.decoded ->> $3::text)::float8 END AS v2) v
  WHERE u.device_id = $1 AND u.received_at >= to_timestamp($7) AND u.received_at < to_timestamp($8)
  GROUP BY 1
  UNION ALL
  SELECT date_bin(make_interval(secs => $2), u.received_at, to_timestamp(0)) AS b, count(*) AS n_all, count(v0) AS n0, sum(v0::numeric) AS s0, min(v0) AS lo0, max(v0) AS hi0, count(v1) AS n1, sum(v1::numeric) AS s1, min(v1) AS lo1, max(v1) AS hi1, count(v2) AS n2, sum(v2::numeric) AS s2, min(v2) AS lo2, max(v2) AS hi2
  FROM uplinks u CROSS JOIN LATERAL (SELECT u.temperature AS v0, u.humidity AS v1, CASE WHEN jsonb_typeof(u.decoded -> $3::text) = 'number' THEN (u.decoded ->> $3::text)::float8 END AS v2) v
  WHERE u.device_id = $1 AND u.received_at >= to_timestamp($9) AND u.received_at < to_timestamp($10)
  GROUP BY 1
  UNION ALL
  SELECT date_bin(make_interval(secs => $2), r.bucket, to_timestamp(0)) AS b, sum(r.n) AS n_all, sum((r.m -> $4::text ->> 0)::bigint) AS n0, sum((r.m -> $4::text ->> 1)::numeric) AS s0, min((r.m -> $4::text ->> 2)::float8) AS lo0, max((r.m -> $4::text ->> 3)::float8) AS hi0, sum((r.m -> $5::text ->> 0)::bigint) AS n1, sum((r.m -> $5::text ->> 1)::numeric) AS s1, min((r.m -> $5::text ->> 2)::float8) AS lo1, max((r.m -> $5::text ->> 3)::float8) AS hi1, sum((r.m -> $6::text ->> 0)::bigint) AS n2, sum((r.m -> $6::text ->> 1)::numeric) AS s2, min((r.m -> $6::text ->> 2)::float8) AS lo2, max((r.m -> $6::text ->> 3)::float8) AS hi2
  FROM uplink_rollups_hourly r
  WHERE r.device_id = $1 AND r.bucket >= to_timestamp($11) AND r.bucket < to_timestamp($12)
  GROUP BY 1
  UNION ALL
  SELECT date_bin(make_interval(secs => $2), r.bucket, to_timestamp(0)) AS b, sum(r.n) AS n_all, sum((r.m -> $4::text ->> 0)::bigint) AS n0, sum((r.m -> $4::text ->> 1)::numeric) AS s0, min((r.m -> $4::text ->> 2)::float8) AS lo0, max((r.m -> $4::text ->> 3)::float8) AS hi0, sum((r.m -> $5::text ->> 0)::bigint) AS n1, sum((r.m -> $5::text ->> 1)::numeric) AS s1, min((r.m -> $5::text ->> 2)::float8) AS lo1, max((r.m -> $5::text ->> 3)::float8) AS hi1, sum((r.m -> $6::text ->> 0)::bigint) AS n2, sum((r.m -> $6::text ->> 1)::numeric) AS s2, min((r.m -> $6::text ->> 2)::float8) AS lo2, max((r.m -> $6::text ->> 3)::float8) AS hi2
  FROM uplink_rollups_hourly r
  WHERE r.device_id = $1 AND r.bucket >= to_timestamp($13) AND r.bucket < to_timestamp($14)
  GROUP BY 1
  UNION ALL
  SELECT date_bin(make_interval(secs => $2), r.bucket, to_timestamp(0)) AS b, sum(r.n) AS n_all, sum((r.m -> $4::text ->> 0)::bigint) AS n0, sum((r.m -> $4::text ->> 1)::numeric) AS s0, min((r.m -> $4::text ->> 2)::float8) AS lo0, max((r.m -> $4::text ->> 3)::float8) AS hi0, sum((r.m -> $5::text ->> 0)::bigint) AS n1, sum((r.m -> $5::text ->> 1)::numeric) AS s1, min((r.m -> $5::text ->> 2)::float8) AS lo1, max((r.m -> $5::text ->> 3)::float8) AS hi1, sum((r.m -> $6::text ->> 0)::bigint) AS n2, sum((r.m -> $6::text ->> 1)::numeric) AS s2, min((r.m -> $6::text ->> 2)::float8) AS lo2, max((r.m -> $6::text ->> 3)::float8) AS hi2
  FROM uplink_rollups_daily r
  WHERE r.device_id = $1 AND r.bucket >= to_timestamp($15) AND r.bucket < to_timestamp($16)
  GROUP BY 1
)
SELECT extract(epoch FROM b)::bigint AS t, min(lo0) AS m0_min, (sum(s0) / nullif(sum(n0), 0))::float8 AS m0_avg, max(hi0) AS m0_max, coalesce(sum(n0), 0)::int AS m0_count, min(lo1) AS m1_min, (sum(s1) / nullif(sum(n1), 0))::float8 AS m1_avg, max(hi1) AS m1_max, coalesce(sum(n1), 0)::int AS m1_count, min(lo2) AS m2_min, (sum(s2) / nullif(sum(n2), 0))::float8 AS m2_avg, max(hi2) AS m2_max, coalesce(sum(n2), 0)::int AS m2_count
FROM parts GROUP BY b HAVING sum(n_all) > 0 ORDER BY b;
