import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import type { RouteAuthLevel } from '@dts/domain';
import { RouteCatalog } from '../../modules/system/route-catalog.service';
import { API_VERSION, readBuildInfo } from '../../modules/system/build-info';

const USER_SECURITY: Record<string, string[]>[] = [{ bearer: [] }, { token: [] }, { session: [] }];
const SECURITY: Record<RouteAuthLevel, Record<string, string[]>[]> = {
  none: [],
  user: USER_SECURITY,
  admin: USER_SECURITY,
  ingest: [{ ingestSecret: [] }, ...USER_SECURITY],
  metrics: [{ metricsToken: [] }],
};

/** The OpenAPI document, with each operation's security taken from the route's auth level. */
export function buildOpenApiDocument(app: INestApplication, cookieName: string): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Device Telemetry Service')
    .setDescription(
      'HTTP/JSON interface to an IoT device-management platform. Every response is the envelope ' +
        '`{errors, debug, meta, messages, data, success}`; errors carry stable `code`s (see the README).',
    )
    .setVersion(`${readBuildInfo().version} (api ${API_VERSION})`)
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'API token (64 hex). `Authorization: <token>` works too.' }, 'bearer')
    .addApiKey({ type: 'apiKey', in: 'header', name: 'token', description: 'API token in a `token` header.' }, 'token')
    .addCookieAuth(cookieName, { type: 'apiKey', in: 'cookie', name: cookieName, description: 'Session from POST /auth/login.' }, 'session')
    .addApiKey({ type: 'apiKey', in: 'header', name: 'X-Ingest-Secret', description: 'Platform ingest secret.' }, 'ingestSecret')
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'METRICS_TOKEN, when set (GET /metrics is open otherwise).' }, 'metricsToken')
    .build();
  const document = SwaggerModule.createDocument(app, config);
  for (const route of app.get(RouteCatalog).routes()) {
    const operation = (document.paths[route.path] as Record<string, { security?: unknown }> | undefined)?.[route.method.toLowerCase()];
    if (operation) operation.security = SECURITY[route.auth];
  }
  return document;
}

/** Swagger UI at /docs, the document at /docs/openapi.json. */
export function mountOpenApi(app: INestApplication, cookieName: string): void {
  SwaggerModule.setup('docs', app, () => buildOpenApiDocument(app, cookieName), { jsonDocumentUrl: 'docs/openapi.json', yamlDocumentUrl: 'docs/openapi.yaml' });
}
