// The audit log's cost on the calls it records (docs/architecture.md, "The audit log"): a
// state-changing call, POST /user/device/meta/{eui} {label} with an API token, closed loop (max
// req/s) and at a fixed rate (80% of the baseline's max, p99), on the service with the audit log
// (every call recorded, written in batches) against the same service with AUDIT_LOG=false: the same
// work but the recording. One after the other on fresh databases of their own.
import { accountWithToken, createDevice } from '../lib/api-client.mjs';
import { freshDatabase } from '../lib/database.mjs';
import { throughputAndLatency } from '../lib/load.mjs';
import { row } from '../lib/report.mjs';
import { startApi } from '../lib/service.mjs';

const CONNECTIONS = 10;

async function measure(ctx, audit, fixedRate = null) {
  const db = await freshDatabase(ctx);
  const api = await startApi(ctx, db, { label: `audit-${audit ? 'on' : 'off'}`, env: { AUDIT_LOG: String(audit) } });
  try {
    const account = await accountWithToken(api.url);
    const device = await createDevice(api.url, account);
    const target = {
      url: `${api.url}/user/device/meta/${device.eui}`,
      method: 'POST',
      headers: { ...account.auth, 'Content-Type': 'application/json' },
      body: JSON.stringify({ label: 'audited' }),
      connections: CONNECTIONS,
    };
    return await throughputAndLatency(ctx, target, fixedRate === null ? {} : { fixedRate });
  } finally {
    await api.stop();
    await db.drop();
  }
}

export async function run(ctx) {
  const off = await measure(ctx, false);
  const on = await measure(ctx, true, off.fixedRate);
  const failures = [on.failures, off.failures].filter(Boolean).join('; ') || null;
  return [
    row({
      figure: 'audit log',
      measure: `POST /user/device/meta/{eui} (token), ${CONNECTIONS} connections (max, closed loop), every call recorded`,
      value: on.maxRate,
      unit: 'req/s',
      baseline: off.maxRate,
      baselineLabel: 'the same service with AUDIT_LOG=false',
      goal: '≥ 90% of the baseline',
      met: on.maxRate >= 0.9 * off.maxRate,
      note: failures,
    }),
    row({
      figure: 'audit log',
      measure: `p99 at a fixed ${Math.round(off.fixedRate)} req/s (80% of the baseline's max)`,
      value: on.p99,
      unit: 'ms',
      baseline: off.p99,
      baselineLabel: 'the same service with AUDIT_LOG=false',
      goal: '≤ 1.5× the baseline',
      met: on.p99 <= 1.5 * off.p99,
      note: `p50 ${on.p50.toFixed(1)} ms against ${off.p50.toFixed(1)} ms`,
    }),
  ];
}
