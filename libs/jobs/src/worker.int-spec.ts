import { getQueueToken } from '@nestjs/bullmq';
import { getDataSourceToken } from '@nestjs/typeorm';
import { QUEUES } from '@dts/domain';
import { runMigrations } from '@dts/persistence';
import { eventually, freePort, loadConfig } from '@dts/platform';
import type { Queue } from 'bullmq';
import { randomBytes } from 'node:crypto';
import { createWorkerTestDatabase, realRedisUrl, type WorkerTestDatabase } from './testing/test-database';
import type { DataSource } from 'typeorm';
import { unhandledJobs } from './jobs.module';
import { startWorker, type WorkerHandle } from './start-worker';

describe('unhandledJobs', () => {
  it('names the jobs no processor takes', () => {
    expect(unhandledJobs(['mail.send'], ['mail.send', 'maintenance.purge-expired'])).toEqual(['maintenance.purge-expired']);
    expect(
      unhandledJobs([
        'mail.send',
        'maintenance.purge-expired',
        'device.purge',
        'device.redecode',
        'cache.rebuild',
        'command.dispatch',
        'command.requeue',
        'image.thumbnail',
        'image.purge',
        'auth.password-reset',
        'image.reap',
        'alerts.offline-check',
        'alert.mail',
        'integrations.maintenance',
        'timeseries.maintain',
        'auth.email-verification',
        'alerts.mail-digest',
      ]),
    ).toEqual([]);
  });
});

describe('the standalone worker', () => {
  let db: WorkerTestDatabase;
  let worker: WorkerHandle;
  let healthPort: number;

  beforeAll(async () => {
    db = await createWorkerTestDatabase('dts_worker');
    const url = db.url;
    await runMigrations({ url, poolSize: 1 });
    healthPort = await freePort();
    const config = loadConfig({
      DATABASE_URL: url,
      ...(realRedisUrl ? { REDIS_URL: realRedisUrl } : {}),
      REDIS_PREFIX: `dts-worker-${randomBytes(4).toString('hex')}`,
      INGEST_SECRET: 'worker-test-ingest-secret',
      TOKEN_ENCRYPTION_KEY: 'cd'.repeat(32),
      SESSION_SECRET: 'w'.repeat(40),
      LOG_LEVEL: 'silent',
      DB_POOL_SIZE: '3',
    });
    worker = await startWorker(config, { url, embedded: db.embedded }, { healthPort });
  });

  afterAll(async () => {
    await worker?.close();
    await db?.drop();
  });

  it('answers its health probes in the envelope', async () => {
    const live = await fetch(`http://127.0.0.1:${healthPort}/health/live`);
    expect(live.status).toBe(200);
    const ready = await fetch(`http://127.0.0.1:${healthPort}/health/ready`);
    expect(await ready.json()).toMatchObject({ success: true, errors: [], data: { status: 'ok' } });
    const unknown = await fetch(`http://127.0.0.1:${healthPort}/elsewhere`);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ success: false, errors: [{ code: 'ROUTE_NOT_FOUND' }] });
  });

  it('runs the purge job: expired sessions go, live ones stay', async () => {
    const ds = worker.context.get<DataSource>(getDataSourceToken());
    const [{ id }] = await ds.query(
      `INSERT INTO accounts (username, username_key, email, email_key, password_hash, expires_on, max_devices) VALUES ('w', 'w', 'w@x.org', 'w@x.org', 'x', '2099-01-01', 1) RETURNING id`,
    );
    await ds.query(
      `INSERT INTO sessions (digest, account_id, expires_at) VALUES ('\\x01', $1, now() - interval '1 minute'), ('\\x02', $1, now() + interval '1 hour')`,
      [id],
    );
    const queue = worker.context.get<Queue>(getQueueToken(QUEUES.maintenance));
    const job = await queue.add('maintenance.purge-expired', {});
    await eventually(async () => expect(await job.isCompleted()).toBe(true), { what: 'the purge job to complete', timeoutMs: 15_000, intervalMs: 50 });
    const left: { digest: Buffer }[] = await ds.query('SELECT digest FROM sessions WHERE account_id = $1', [id]);
    expect(left.map((r) => r.digest.toString('hex'))).toEqual(['02']);
  });

  it('fails a job of an unknown name at once instead of retrying it', async () => {
    const queue = worker.context.get<Queue>(getQueueToken(QUEUES.mail));
    const job = await queue.add('mail.unknown', {}, { attempts: 5 });
    await eventually(async () => expect(await job.isFailed()).toBe(true), { what: 'the job of an unknown name to fail', timeoutMs: 15_000, intervalMs: 50 });
    const failed = await queue.getJob(job.id!);
    expect(failed?.failedReason).toMatch(/no processor for job "mail.unknown"/);
    expect(failed?.attemptsMade).toBe(1);
  });
});
