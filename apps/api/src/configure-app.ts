import type { NestExpressApplication } from '@nestjs/platform-express';
import { type AppConfig, MetricsService } from '@dts/platform';
import cookieParser from 'cookie-parser';
import helmet from 'helmet';
import { Logger } from 'nestjs-pino';
import { jsonBodyMiddlewares } from './common/http/body-parsing';
import { httpMetricsMiddleware } from './common/http/http-metrics';
import { requestIdMiddleware } from './common/http/request-id';
import { mountOpenApi } from './common/openapi/openapi';

/** `TRUST_PROXY` as Express understands it: a hop count, true/false, or a list of subnets. */
export function trustProxySetting(value: string): boolean | number | string {
  if (/^\d+$/.test(value)) return Number(value);
  if (value === 'true' || value === 'false') return value === 'true';
  return value;
}

/** Everything that wraps the Nest router: order matters, the request id comes first. */
export function configureApp(app: NestExpressApplication, config: AppConfig): void {
  app.useLogger(app.get(Logger));
  app.disable('x-powered-by');
  app.set('trust proxy', trustProxySetting(config.trustProxy));
  app.use(requestIdMiddleware);
  app.use(httpMetricsMiddleware(app.get(MetricsService)));
  app.use(
    helmet({
      contentSecurityPolicy: {
        directives: { defaultSrc: ["'self'"], scriptSrc: ["'self'"], styleSrc: ["'self'", "'unsafe-inline'"], imgSrc: ["'self'", 'data:'] },
      },
    }),
  );
  app.use(cookieParser());
  // Uploads are multipart; only the routes with an upload interceptor read such bodies.
  app.use(...jsonBodyMiddlewares(['multipart/form-data']));
  mountOpenApi(app, config.session.cookieName);
}
