// Long histories seeded straight into the uplinks table with generate_series (as
// apps/api/test/streaming.e2e-spec.ts does): LPP temperature rows, one a minute, oldest first.
const CHUNK = 100_000;

export async function seedUplinks(pool, deviceUid, count) {
  for (let from = 1; from <= count; from += CHUNK) {
    const to = Math.min(count, from + CHUNK - 1);
    await pool.query(
      `INSERT INTO uplinks (device_id, received_at, network_ref, port, fcnt, payload, rssi, snr, decoded, valid, temperature, humidity)
       SELECT $1, timestamptz '2024-01-01' + g * interval '1 minute', 4, 1, g, '\\x036700e5', -90, 7.5,
              '{"temperature": 22.9, "temperature_3": 22.9}'::jsonb, true, 22.9, 40 + g % 20
       FROM generate_series($2::int, $3::int) g`,
      [deviceUid, from, to],
    );
  }
  await pool.query('ANALYZE uplinks');
}
