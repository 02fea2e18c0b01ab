import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { embeddedConnectionsFor, runMigrations, startEmbeddedPostgres, type EmbeddedPostgres } from '@dts/persistence';
import type { AppConfig } from '@dts/platform';
import { AppModule, type DatabaseEndpoint } from './app.module';
import { configureApp } from './configure-app';

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

/**
 * Starts the service: the database (embedded unless DATABASE_URL is set), migrations, and the api
 * with, when WORKER_IN_PROCESS, the queue processors in the same application.
 */
export async function startService(config: AppConfig, options: StartOptions = {}): Promise<ServiceHandle> {
  let embedded: EmbeddedPostgres | null = null;
  if (!config.database.url && !options.database) {
    embedded = await startEmbeddedPostgres({ dataDir: options.inMemoryDatabase ? null : config.database.dataDir, maxConnections: embeddedConnectionsFor(config.database.poolSize) });
  }
  const database: DatabaseEndpoint = options.database ?? { url: config.database.url ?? embedded!.url, embedded: embedded !== null };
  let app: NestExpressApplication | null = null;
  try {
    if (config.database.runMigrations) await runMigrations({ url: database.url, poolSize: 1 });
    app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config, database), { bodyParser: false, bufferLogs: true });
    configureApp(app, config);
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
      // Closes the HTTP server (in-flight requests finish), then the BullMQ workers and pools.
      await started.close();
      await embedded?.stop();
    },
  };
}
