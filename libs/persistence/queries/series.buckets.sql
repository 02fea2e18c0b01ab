WITH done AS (
  SELECT r.hour FROM uplink_rollups r
  WHERE r.device_id = $1 AND r.hour >= to_timestamp($5) AND r.hour < to_timestamp($6) AND r.member = ANY($7::text[])
  GROUP BY r.hour HAVING count(*) = cardinality($7::text[])
), stretches AS (
  SELECT to_timestamp($2) AS s, to_timestamp($5) AS e
  UNION ALL SELECT to_timestamp($6), to_timestamp($3::bigint + 1)
  UNION ALL SELECT g, g + interval '1 hour' FROM generate_series(to_timestamp($5), to_timestamp($6) - interval '1 hour', interval '1 hour') AS g
            WHERE g NOT IN (SELECT hour FROM done)
), parts AS (
  SELECT date_bin(make_interval(secs => $4), u.received_at, to_timestamp(0)) AS b, count(*) AS n_all, count(v0) AS n0, sum(v0::numeric) AS s0, min(v0) AS lo0, max(v0) AS hi0, count(v1) AS n1, sum(v1::numeric) AS s1, min(v1) AS lo1, max(v1) AS hi1, count(v2) AS n2, sum(v2::numeric) AS s2, min(v2) AS lo2, max(v2) AS hi2
  FROM stretches x JOIN uplinks u ON u.device_id = $1 AND u.received_at >= x.s AND u.received_at < x.e CROSS JOIN LATERAL (SELECT u.temperature AS v0, u.humidity AS v1, CASE WHEN jsonb_typeof(u.decoded -> $8::text) = 'number' THEN (u.decoded ->> $8::text)::float8 END AS v2) v
  GROUP BY 1
  UNION ALL
  SELECT date_bin(make_interval(secs => $4), r.hour, to_timestamp(0)) AS b, sum(r.n) FILTER (WHERE r.member = $9::text) AS n_all, sum(r.n) FILTER (WHERE r.member = $10::text) AS n0, sum(r.total) FILTER (WHERE r.member = $10::text) AS s0, min(r.lo) FILTER (WHERE r.member = $10::text) AS lo0, max(r.hi) FILTER (WHERE r.member = $10::text) AS hi0, sum(r.n) FILTER (WHERE r.member = $11::text) AS n1, sum(r.total) FILTER (WHERE r.member = $11::text) AS s1, min(r.lo) FILTER (WHERE r.member = $11::text) AS lo1, max(r.hi) FILTER (WHERE r.member = $11::text) AS hi1, sum(r.n) FILTER (WHERE r.member = $12::text) AS n2, sum(r.total) FILTER (WHERE r.member = $12::text) AS s2, min(r.lo) FILTER (WHERE r.member = $12::text) AS lo2, max(r.hi) FILTER (WHERE r.member = $12::text) AS hi2
  FROM uplink_rollups r JOIN done d ON d.hour = r.hour
  WHERE r.device_id = $1 AND r.member = ANY($7::text[])
  GROUP BY 1
)
SELECT extract(epoch FROM b)::bigint AS t, min(lo0) AS m0_min, (sum(s0) / nullif(sum(n0), 0))::float8 AS m0_avg, max(hi0) AS m0_max, coalesce(sum(n0), 0)::int AS m0_count, min(lo1) AS m1_min, (sum(s1) / nullif(sum(n1), 0))::float8 AS m1_avg, max(hi1) AS m1_max, coalesce(sum(n1), 0)::int AS m1_count, min(lo2) AS m2_min, (sum(s2) / nullif(sum(n2), 0))::float8 AS m2_avg, max(hi2) AS m2_max, coalesce(sum(n2), 0)::int AS m2_count
FROM parts GROUP BY b HAVING sum(n_all) > 0 ORDER BY b;
