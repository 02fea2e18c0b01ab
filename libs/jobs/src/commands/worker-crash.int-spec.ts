import { commandDispatchJobId, QUEUES } from '@dts/domain';
import { runMigrations } from '@dts/persistence';
import { eventually, loadConfig, TokenCryptoService } from '@dts/platform';
import { Queue } from 'bullmq';
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { Client } from 'pg';
import { createWorkerTestDatabase, realDatabaseUrl, realRedisUrl, type WorkerTestDatabase } from '../testing/test-database';

const root = join(__dirname, '../../../..');

/**
 * A worker is a separate process only with a real PostgreSQL (the embedded database lives inside
 * the api process, and so does its worker): this runs in the PostgreSQL + Redis pass of `npm test`.
 */
const suite = realDatabaseUrl && realRedisUrl ? describe : describe.skip;

suite('a worker killed in the middle of handing a command to the network', () => {
  const prefix = `dts-crash-${randomBytes(4).toString('hex')}`;
  const secrets = { INGEST_SECRET: 'crash-test-ingest-secret', TOKEN_ENCRYPTION_KEY: 'ef'.repeat(32), SESSION_SECRET: 'c'.repeat(40) };
  let db: WorkerTestDatabase;
  let url: string;
  let network: Server;
  let networkPort: number;
  const hits: string[] = [];
  let onHit: (() => void) | null = null;
  const workers: ChildProcess[] = [];

  const startWorker = () => {
    const child = spawn(process.execPath, [join(root, 'dist/apps/worker/src/main.js')], {
      env: {
        PATH: process.env.PATH ?? '',
        DATABASE_URL: url,
        REDIS_URL: realRedisUrl!,
        REDIS_PREFIX: prefix,
        OUTBOUND_ALLOW_PRIVATE: 'true',
        WORKER_HEALTH_PORT: '0',
        LOG_LEVEL: 'warn',
        LOG_PRETTY: 'false',
        ...secrets,
      },
      stdio: 'ignore',
    });
    workers.push(child);
    return child;
  };

  beforeAll(async () => {
    db = await createWorkerTestDatabase('dts_crash');
    url = db.url;
    await runMigrations({ url, poolSize: 1 });
    network = createServer((req, res) => {
      hits.push(`${req.method} ${req.url}`);
      const hit = onHit;
      onHit = null;
      if (hit) return hit(); // the first call is left hanging while the worker is killed
      req.resume();
      req.on('end', () => res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ id: 'queue-item-1' })));
    });
    await new Promise<void>((r) => network.listen(0, '127.0.0.1', () => r()));
    networkPort = (network.address() as { port: number }).port;
  }, 60_000);

  afterAll(async () => {
    for (const w of workers) w.kill('SIGKILL');
    network?.closeAllConnections();
    await new Promise((r) => network?.close(r));
    await db?.drop();
  });

  it('delivers it again after a restart and records it once', async () => {
    const crypto = new TokenCryptoService(loadConfig({ DATABASE_URL: url, ...secrets }));
    const db = new Client({ connectionString: url });
    await db.connect();
    const [{ id }] = (
      await db.query(
        `INSERT INTO accounts (username, username_key, email, email_key, password_hash, expires_on, max_devices) VALUES ('c', 'c', 'c@x.org', 'c@x.org', 'x', '2099-01-01', 5) RETURNING id`,
      )
    ).rows;
    const [{ uid: net }] = (
      await db.query(
        `INSERT INTO networks (name, type_ref, adapter, account_id, base_url, api_key_encrypted) VALUES ('cs', 1, 'chirpstack', $1, $2, $3) RETURNING uid`,
        [id, `http://127.0.0.1:${networkPort}`, crypto.encrypt('key')],
      )
    ).rows;
    const [{ uid: device }] = (
      await db.query(`INSERT INTO devices (eui, owner_id, label, network_ref) VALUES ('70B3D57ED00C0A51', $1, 'x', $2) RETURNING uid`, [id, net])
    ).rows;
    const [{ uid: command }] = (
      await db.query(`INSERT INTO commands (device_id, status, network_ref, port, payload) VALUES ($1, 'Created', $2, 10, '\\x01') RETURNING uid`, [
        device,
        net,
      ])
    ).rows;

    const first = startWorker();
    const killed = new Promise<void>((resolve) => {
      onHit = () => {
        first.kill('SIGKILL');
        resolve();
      };
    });
    const queue = new Queue(QUEUES.commandDispatch, { connection: { url: realRedisUrl! }, prefix: `${prefix}:q` });
    await queue.add(
      'command.dispatch',
      { commandUid: command },
      { jobId: commandDispatchJobId(command), attempts: 6, backoff: { type: 'exponential', delay: 2000 } },
    );
    await killed;
    await new Promise((r) => first.once('exit', r));
    const [{ status: whileDown }] = (await db.query('SELECT status FROM commands WHERE uid = $1', [command])).rows;
    expect(whileDown).toBe('Created');

    startWorker();
    const row = await eventually(
      async () => {
        const now: { status: string; network_id: string | null } = (await db.query('SELECT status, network_id FROM commands WHERE uid = $1', [command]))
          .rows[0];
        expect(now.status).not.toBe('Created');
        return now;
      },
      { what: 'the restarted worker to hand the command off', timeoutMs: 45_000, intervalMs: 100 },
    );
    expect(row).toEqual({ status: 'Scheduled', network_id: 'queue-item-1' });
    // At least once to the network (twice here: the first hand-off never got its answer), once in the record.
    expect(hits).toEqual([`POST /api/devices/70b3d57ed00c0a51/queue`, `POST /api/devices/70b3d57ed00c0a51/queue`]);
    await queue.close();
    await db.end();
  }, 90_000);
});
