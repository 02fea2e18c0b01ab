import { getQueueToken } from '@nestjs/bullmq';
import { ALL_JOB_NAMES, QUEUES } from '@dts/domain';
import { runMigrations } from '@dts/persistence';
import { eventually, freePort, loadConfig } from '@dts/platform';
import type { Job, Queue } from 'bullmq';
import { randomBytes } from 'node:crypto';
import { createWorkerTestDatabase, realRedisUrl, type WorkerTestDatabase } from './testing/test-database';
import { startWorker, type WorkerHandle } from './start-worker';

/* The standalone worker's GET /metrics on its health port: job outcomes and queue depths. */

const METRICS_TOKEN = 'worker-metrics-token-0123456789';

/** Value of the samples of `name` whose labels include `labels`, summed; from the text format. */
function value(text: string, name: string, labels: Record<string, string>): number {
  let total = 0;
  for (const line of text.split('\n')) {
    const m = /^([a-z_]+)\{([^}]*)\} (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const have = Object.fromEntries([...m[2]!.matchAll(/(\w+)="([^"]*)"/g)].map((l) => [l[1], l[2]]));
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) total += Number(m[3]);
  }
  return total;
}

async function settled(job: Job, state: 'completed' | 'failed'): Promise<void> {
  await eventually(async () => expect(await (state === 'completed' ? job.isCompleted() : job.isFailed())).toBe(true), {
    what: `job ${job.name} (${job.id}) to be ${state}`,
    timeoutMs: 15_000,
    intervalMs: 50,
  });
}

describe('the standalone worker’s /metrics', () => {
  let db: WorkerTestDatabase;
  let worker: WorkerHandle;
  let url: string;

  const scrape = async () => {
    const res = await fetch(`${url}/metrics`, { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(res.status).toBe(200);
    return res.text();
  };

  beforeAll(async () => {
    db = await createWorkerTestDatabase('dts_wmetrics');
    const dbUrl = db.url;
    await runMigrations({ url: dbUrl, poolSize: 1 });
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    const config = loadConfig({
      DATABASE_URL: dbUrl,
      ...(realRedisUrl ? { REDIS_URL: realRedisUrl } : {}),
      REDIS_PREFIX: `dts-wmetrics-${randomBytes(4).toString('hex')}`,
      INGEST_SECRET: 'worker-test-ingest-secret',
      TOKEN_ENCRYPTION_KEY: 'cd'.repeat(32),
      SESSION_SECRET: 'w'.repeat(40),
      LOG_LEVEL: 'silent',
      DB_POOL_SIZE: '3',
      METRICS_TOKEN,
    });
    worker = await startWorker(config, { url: dbUrl, embedded: db.embedded }, { healthPort: port });
  }, 60_000);

  afterAll(async () => {
    await worker?.close();
    await db?.drop();
  });

  it('needs METRICS_TOKEN: 401 AUTH_REQUIRED without it, INVALID_TOKEN with another', async () => {
    const none = await fetch(`${url}/metrics`);
    expect(none.status).toBe(401);
    expect(await none.json()).toMatchObject({ success: false, errors: [{ code: 'AUTH_REQUIRED' }] });
    const wrong = await fetch(`${url}/metrics`, { headers: { Authorization: `Bearer ${METRICS_TOKEN}-not` } });
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toMatchObject({ success: false, errors: [{ code: 'INVALID_TOKEN' }] });
  });

  it("serves Prometheus text with the process's own metrics; the deployment's queue depths are the api's /metrics/cluster", async () => {
    const res = await fetch(`${url}/metrics`, { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await res.text();
    expect(text).not.toMatch(/^dts_queue_depth/m);
    expect(text).toMatch(/^dts_build_info\{version="[^"]+",commit="[^"]+",node_version="v\d+\.\d+\.\d+"\} 1$/m);
    expect(text).toMatch(/^process_cpu_user_seconds_total \S+$/m);
    expect(text).toMatch(/^dts_db_pool_connections\{state="total"\} \d+$/m);
  });

  it('counts job outcomes by job: completed, retried, failed, and unknown names under one label', async () => {
    // The purge scheduler runs once at start; on a loaded machine that run can land inside the
    // window below, so the window opens after it.
    await eventually(
      async () => expect(value(await scrape(), 'dts_jobs_total', { job: 'maintenance.purge-expired', outcome: 'completed' })).toBeGreaterThanOrEqual(1),
      {
        what: 'the purge run at start to be counted',
        timeoutMs: 15_000,
        intervalMs: 50,
      },
    );
    const before = await scrape();
    const maintenance = worker.context.get<Queue>(getQueueToken(QUEUES.maintenance));
    await settled(await maintenance.add('maintenance.purge-expired', {}), 'completed');
    // A device uid that is no integer: the statement fails, a transient error as far as BullMQ knows.
    const purge = worker.context.get<Queue>(getQueueToken(QUEUES.devicePurge));
    await settled(await purge.add('device.purge', { deviceUid: 'not-a-number' }, { attempts: 2, backoff: { type: 'fixed', delay: 10 } }), 'failed');
    const mail = worker.context.get<Queue>(getQueueToken(QUEUES.mail));
    await settled(await mail.add(`mail.unknown-${randomBytes(3).toString('hex')}`, {}, { attempts: 5 }), 'failed');
    const after = await scrape();

    const delta = (job: string, outcome: string) => value(after, 'dts_jobs_total', { job, outcome }) - value(before, 'dts_jobs_total', { job, outcome });
    expect(delta('maintenance.purge-expired', 'completed')).toBe(1);
    expect({ retried: delta('device.purge', 'retried'), failed: delta('device.purge', 'failed'), completed: delta('device.purge', 'completed') }).toEqual({
      retried: 1,
      failed: 1,
      completed: 0,
    });
    expect(delta('unknown', 'failed')).toBe(1);
    expect(after).not.toContain('mail.unknown');
    for (const m of after.matchAll(/^dts_jobs_total\{job="([^"]+)"/gm)) expect([...ALL_JOB_NAMES, 'unknown']).toContain(m[1]);
  });
});
