import { NestFactory } from '@nestjs/core';
import type { INestApplicationContext } from '@nestjs/common';
import { successEnvelope, errorEnvelope } from '@dts/domain';
import { type AppConfig, metricsAccess, MetricsService, ReadinessService, verifyRedisEvictionPolicy } from '@dts/platform';
import { createServer, type Server } from 'node:http';
import { Logger } from 'nestjs-pino';
import type { DatabaseEndpoint } from '@dts/persistence';
import { WorkerModule } from './worker.module';

export interface WorkerHandle {
  context: INestApplicationContext;
  close(): Promise<void>;
}

/**
 * The worker has no HTTP interface but its health: GET /health/live and /health/ready answer in
 * the envelope, for the orchestrator's probes; GET /metrics is Prometheus' text, behind
 * METRICS_TOKEN like the api's.
 */
function healthServer(readiness: ReadinessService, metrics: MetricsService, config: AppConfig, port: number): Promise<Server> {
  const server = createServer((req, res) => {
    const respond = (status: number, body: unknown) => {
      res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
    };
    if (req.url === '/metrics' && req.method === 'GET') {
      const access = metricsAccess(req.headers.authorization, config.metricsToken);
      if (access !== 'open') {
        const message = access === 'AUTH_REQUIRED' ? 'the metrics token is required' : 'the metrics token is not valid';
        return respond(401, errorEnvelope([{ code: access, message, field: 'Authorization' }]));
      }
      metrics.scrape().then(
        ({ contentType, body }) => res.writeHead(200, { 'Content-Type': contentType }).end(body),
        () => respond(500, errorEnvelope([{ code: 'INTERNAL', message: 'metrics could not be collected' }])),
      );
      return;
    }
    const check = req.url === '/health/live' ? readiness.live() : req.url === '/health/ready' ? readiness.ready() : null;
    if (!check) return respond(404, errorEnvelope([{ code: 'ROUTE_NOT_FOUND', message: 'no such route' }]));
    check.then(
      (result) => respond(200, successEnvelope(result)),
      () => respond(503, errorEnvelope([{ code: 'UNAVAILABLE', message: 'the worker is not ready' }])),
    );
  });
  // On HOST, as the api: an operator who binds the service to one interface binds both.
  return new Promise((resolve) => server.listen(port, config.host, () => resolve(server)));
}

export async function startWorker(config: AppConfig, database: DatabaseEndpoint, options: { healthPort: number | null }): Promise<WorkerHandle> {
  await verifyRedisEvictionPolicy(config);
  const context = await NestFactory.createApplicationContext(WorkerModule.forRoot(config, database), { bufferLogs: true });
  context.useLogger(context.get(Logger));
  await context.init();
  const health =
    options.healthPort === null ? null : await healthServer(context.get(ReadinessService), context.get(MetricsService), config, options.healthPort);
  return {
    context,
    async close() {
      context.get(ReadinessService).markStopping();
      await new Promise<void>((resolve) => (health ? health.close(() => resolve()) : resolve()));
      // Closing the context closes the BullMQ workers: the active jobs finish first.
      await context.close();
    },
  };
}
