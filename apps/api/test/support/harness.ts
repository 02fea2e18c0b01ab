import type { INestApplication } from '@nestjs/common';
import { DeviceTelemetryClient, type DeviceTelemetryClientOptions } from '@dts/client';
import { type AppConfig, loadConfig } from '@dts/platform';
import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { startService, type ServiceHandle } from '../../src/runtime';
import { TEST_SECRETS } from '../../src/testing/test-secrets';
import { createTestDatabase, realRedisUrl, type TestDatabase } from './test-database';

export { TEST_SECRETS };

export interface TestService {
  handle: ServiceHandle;
  config: AppConfig;
  app: INestApplication;
  url: string;
  http(): ReturnType<typeof request>;
  /** The typed client (libs/client) on this service's port, with these credentials. */
  client(options?: Omit<DeviceTelemetryClientOptions, 'baseUrl'>): DeviceTelemetryClient;
  close(): Promise<void>;
}

export interface TestServiceOptions {
  env?: Record<string, string>;
  /** Join an existing service's database instead of making a new one (a second instance). */
  sameDatabaseAs?: TestService;
}

/** Starts the whole service (api and in-process worker) on a free port with a database of its own. */
export async function startTestService(options: TestServiceOptions = {}): Promise<TestService> {
  const shared = options.sameDatabaseAs;
  const db: TestDatabase = shared
    ? { url: shared.handle.database.embedded ? null : shared.handle.database.url, drop: async () => undefined }
    : await createTestDatabase();
  const env: Record<string, string> = {
    NODE_ENV: 'test',
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    LOG_PRETTY: 'false',
    DB_POOL_SIZE: '4',
    WORKER_IN_PROCESS: 'true',
    // No load balancer watches a test's instance: it stops listening at once rather than 500 ms
    // after readiness fails (the drain itself is process.e2e-spec.ts's and faults-processes's).
    SHUTDOWN_DRAIN_GRACE_MS: '0',
    REDIS_PREFIX: shared ? shared.config.redis.prefix : `dts-test-${randomBytes(4).toString('hex')}`,
    ...TEST_SECRETS,
    ...(db.url ? { DATABASE_URL: db.url } : {}),
    ...(realRedisUrl ? { REDIS_URL: realRedisUrl } : {}),
    ...options.env,
  };
  const config = loadConfig(env);
  const handle = await startService(config, { inMemoryDatabase: true, database: shared?.handle.database });
  let closed = false;
  return {
    handle,
    config,
    app: handle.app,
    url: handle.url,
    http: () => request(handle.url),
    client: (clientOptions = {}) => new DeviceTelemetryClient({ baseUrl: handle.url, ...clientOptions }),
    async close() {
      if (closed) return;
      closed = true;
      await handle.close();
      await db.drop();
    },
  };
}
