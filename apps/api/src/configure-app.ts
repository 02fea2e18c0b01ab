import { INGEST_NETWORKS } from '@dts/domain';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { type AppConfig, AppLogger, HTTP_LOGGERS, type HttpLoggers, MetricsService } from '@dts/platform';
import type { Express, RequestHandler } from 'express';
import type { Server } from 'node:http';
import helmet from 'helmet';
import { GLOBAL_GUARDS } from './app.module';
import { AuditLog } from './common/audit/audit-log';
import { auditMiddleware } from './common/audit/audit.middleware';
import { Authenticator } from './common/auth/authenticator.service';
import { ApiExceptionFilter } from './common/http/api-exception.filter';
import { compressionMiddleware } from './common/http/compression';
import { binaryBodyMiddlewares, jsonBodyMiddlewares, LARGE_BODY_ROUTES, largeBodyMiddlewares } from './common/http/body-parsing';
import { hotLane, type HotRoute } from './common/http/hot-lane';
import { requestIdMiddleware } from './common/http/request-id';
import { requestLogMiddleware } from './common/http/request-log';
import { mountOpenApi } from './common/openapi/openapi';
import { AccountRateLimit } from './common/throttling/account-rate-limit';
import { mountConsole } from './modules/console/console-static';
import { DevicesController } from './modules/devices/devices.controller';

/** `TRUST_PROXY` as Express understands it: a hop count, true/false, or a list of subnets. */
export function trustProxySetting(value: string): boolean | number | string {
  if (/^\d+$/.test(value)) return Number(value);
  if (value === 'true' || value === 'false') return value === 'true';
  return value;
}

/** The reads clients poll most, answered by the hot lane (common/http/hot-lane.ts). */
const HOT_ROUTES: HotRoute[] = [{ controller: DevicesController, handler: 'list', call: (devices: DevicesController, caller) => devices.list(caller) }];

function securityHeaders(): RequestHandler {
  return helmet({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:'],
        // Off: over plain HTTP on an address other than localhost it would send the page's
        // assets to https:// and leave /docs blank. Whether to use TLS is the proxy's decision.
        upgradeInsecureRequests: null,
      },
    },
    // Typed for node's IncomingMessage, whose `id` pino's types declare otherwise than Express's.
  }) as unknown as RequestHandler;
}

/** Everything that wraps the Nest router: order matters, the request id comes first. */
export function configureApp(app: NestExpressApplication, config: AppConfig): void {
  app.useLogger(app.get(AppLogger));
  app.disable('x-powered-by');
  app.set('trust proxy', trustProxySetting(config.trustProxy));
  const beforeRouter: RequestHandler[] = [
    requestIdMiddleware,
    requestLogMiddleware(app.get<HttpLoggers>(HTTP_LOGGERS).requests, app.get(MetricsService)),
    ...(config.audit.enabled ? [auditMiddleware(app.get(AuditLog))] : []),
    securityHeaders(),
    compressionMiddleware() as RequestHandler,
  ];
  app.use(...beforeRouter);
  installHotLane(app, beforeRouter);
  mountConsole(app, config);
  // A network that posts binary bodies (ChirpStack's Protobuf marshaler) says so in the registry.
  for (const network of INGEST_NETWORKS) if (network.ingest.binary) app.use(`/ingest/${network.ingest.path}`, ...binaryBodyMiddlewares());
  for (const route of LARGE_BODY_ROUTES) app.use(route.path, ...largeBodyMiddlewares(route));
  // Uploads are multipart; only the routes with an upload interceptor read such bodies.
  app.use(...jsonBodyMiddlewares(['multipart/form-data']));
  mountOpenApi(app, { cookieName: config.session.cookieName, publicBaseUrl: config.publicBaseUrl });
}

/** The hot lane in front of Express: the server's requests reach it first, the rest Express. */
function installHotLane(app: NestExpressApplication, middlewares: RequestHandler[]): void {
  const server = app.getHttpServer() as Server;
  const express = app.getHttpAdapter().getInstance() as Express;
  if (!server.listeners('request').includes(express)) throw new Error("hot lane: Express is not the server's request listener");
  const etag = express.get('etag fn') as ((text: string, encoding: BufferEncoding) => string) | undefined;
  const lane = hotLane(HOT_ROUTES, (type) => app.get(type), {
    express,
    middlewares,
    guards: GLOBAL_GUARDS,
    authenticator: app.get(Authenticator),
    rateLimit: app.get(AccountRateLimit),
    filter: app.get(ApiExceptionFilter),
    etag: etag && ((text) => etag(text, 'utf8')),
  });
  server.removeListener('request', express);
  server.on('request', lane);
}
