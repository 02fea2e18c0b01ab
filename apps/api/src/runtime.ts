import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { type DatabaseEndpoint, embeddedConnectionsFor, runMigrations, startEmbeddedPostgres, type EmbeddedPostgres } from '@dts/persistence';
import { type AppConfig, ReadinessService, verifyRedisEvictionPolicy } from '@dts/platform';
import { AppModule } from './app.module';
import { drainableServer } from './common/http/http-drain';
import { ApiExpressAdapter } from './common/http/api-adapter';
import { configureApp } from './configure-app';
import type { Server } from 'node:http';

export interface ServiceHandle {
  app: NestExpressApplication;
  /** True when the queue processors run in this process. */
  worker: boolean;
  database: DatabaseEndpoint;
  /** Base URL the api listens on. */
  url: string;
  /** Stops taking requests, lets in-flight ones finish, closes queues, then the database. */
  close(): Promise<void>;
}

export interface StartOptions {
  /** Embedded database in memory rather than under DATA_DIR (tests). */
  inMemoryDatabase?: boolean;
  /** A database another instance already serves (a second instance on one embedded database). */
  database?: DatabaseEndpoint;
}

/** Node checks its request timeouts this often (its default, 30 s, would let a slow client stay 40 s for a 10 s limit). */
const TIMEOUT_CHECK_INTERVAL_MS = 1_000;

/**
 * Slow-header and slow-body clients (slowloris) are cut off with 408 and their connection closed.
 * Set before listen: Node starts its connection checker when the server starts listening.
 */
function limitSlowClients(server: Server, config: AppConfig): void {
  server.headersTimeout = config.http.headersTimeoutMs;
  server.requestTimeout = config.http.requestTimeoutMs;
  // A documented option of http.createServer that @types/node does not declare as a property.
  (server as Server & { connectionsCheckingInterval: number }).connectionsCheckingInterval = Math.min(TIMEOUT_CHECK_INTERVAL_MS, config.http.headersTimeoutMs);
}

/**
 * Starts the service: the database (embedded unless DATABASE_URL is set), migrations, and the api
 * with, when WORKER_IN_PROCESS, the queue processors in the same application.
 */
export async function startService(config: AppConfig, options: StartOptions = {}): Promise<ServiceHandle> {
  await verifyRedisEvictionPolicy(config);
  let embedded: EmbeddedPostgres | null = null;
  if (!config.database.url && !options.database) {
    embedded = await startEmbeddedPostgres({
      dataDir: options.inMemoryDatabase ? null : config.database.dataDir,
      maxConnections: embeddedConnectionsFor(config.database.poolSize),
      // Nothing can be served without the database: end the process, as a crashed server would
      // end every connection, so that the supervisor starts it again on the same DATA_DIR.
      onLost: (error) => {
        process.stderr.write(`the embedded database stopped: ${error.message}\n`);
        process.exit(1);
      },
    });
  }
  const database: DatabaseEndpoint = options.database ?? { url: config.database.url ?? embedded!.url, embedded: embedded !== null };
  let app: NestExpressApplication | null = null;
  let drain: () => Promise<void> = async () => undefined;
  try {
    if (config.database.runMigrations) await runMigrations({ url: database.url, poolSize: 1 });
    app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config, database), new ApiExpressAdapter(), {
      bodyParser: false,
      bufferLogs: true,
    });
    configureApp(app, config);
    limitSlowClients(app.getHttpServer() as Server, config);
    drain = drainableServer(app.getHttpServer() as Server, config.drainGraceMs);
    await app.listen(config.port, config.host);
  } catch (error) {
    await app?.close().catch(() => undefined);
    await embedded?.stop().catch(() => undefined);
    throw error;
  }
  const address = app.getHttpServer().address() as { port: number };
  const started = app;
  return {
    app: started,
    worker: config.worker.inProcess,
    database,
    url: `http://127.0.0.1:${address.port}`,
    async close() {
      // Readiness fails at once, in-flight requests finish, then Nest closes the BullMQ workers and pools.
      started.get(ReadinessService).markStopping();
      await drain();
      await started.close();
      await embedded?.stop();
    },
  };
}
