import { INGEST_NETWORKS } from '@dts/domain';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { type AppConfig, AppLogger, HTTP_LOGGERS, type HttpLoggers, MetricsService } from '@dts/platform';
import type { RequestHandler } from 'express';
import helmet from 'helmet';
import { AuditLog } from './common/audit/audit-log';
import { auditMiddleware } from './common/audit/audit.middleware';
import { compressionMiddleware } from './common/http/compression';
import { binaryBodyMiddlewares, jsonBodyMiddlewares, LARGE_BODY_ROUTES, largeBodyMiddlewares } from './common/http/body-parsing';
import { requestIdMiddleware } from './common/http/request-id';
import { requestLogMiddleware } from './common/http/request-log';
import { mountOpenApi } from './common/openapi/openapi';
import { mountConsole } from './modules/console/console-static';

/** `TRUST_PROXY` as Express understands it: a hop count, true/false, or a list of subnets. */
export function trustProxySetting(value: string): boolean | number | string {
  if (/^\d+$/.test(value)) return Number(value);
  if (value === 'true' || value === 'false') return value === 'true';
  return value;
}

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
  app.use(
    requestIdMiddleware,
    requestLogMiddleware(app.get<HttpLoggers>(HTTP_LOGGERS).requests, app.get(MetricsService)),
    ...(config.audit.enabled ? [auditMiddleware(app.get(AuditLog))] : []),
    securityHeaders(),
    compressionMiddleware() as RequestHandler,
  );
  mountConsole(app, config);
  // A network that posts binary bodies (ChirpStack's Protobuf marshaler) says so in the registry.
  for (const network of INGEST_NETWORKS) if (network.ingest.binary) app.use(`/ingest/${network.ingest.path}`, ...binaryBodyMiddlewares());
  for (const route of LARGE_BODY_ROUTES) app.use(route.path, ...largeBodyMiddlewares(route));
  // Uploads are multipart; only the routes with an upload interceptor read such bodies.
  app.use(...jsonBodyMiddlewares(['multipart/form-data']));
  mountOpenApi(app, { cookieName: config.session.cookieName, publicBaseUrl: config.publicBaseUrl });
}
