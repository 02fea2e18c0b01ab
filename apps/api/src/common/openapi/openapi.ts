import { API_VERSION, readBuildInfo } from '@dts/platform';
import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import type { RouteAuthLevel } from '@dts/domain';
import { type CatalogRoute, RouteCatalog } from '../http/route-catalog.service';
import { API_TAGS } from './api-tags';
import { ANY_VALUE_MARK, errorResponse } from './api-envelope.decorator';

const USER_SECURITY: Record<string, string[]>[] = [{ bearer: [] }, { token: [] }, { session: [] }];
const SECURITY: Record<RouteAuthLevel, Record<string, string[]>[]> = {
  none: [],
  user: USER_SECURITY,
  admin: USER_SECURITY,
  ingest: [{ ingestSecret: [] }, ...USER_SECURITY],
  metrics: [{ metricsToken: [] }],
};

/** What the document needs to know of the running service. */
export interface OpenApiSettings {
  cookieName: string;
  /** Where the service is reached (PUBLIC_BASE_URL): the document's server. */
  publicBaseUrl: string;
}

/** Handlers that act on one object: their operationId names the resource in the singular (`createCommand`, not `createCommands`). */
const ONE_OBJECT = new Set(['create', 'one', 'detail', 'update', 'delete', 'remove', 'cancel', 'register', 'upload', 'annotate', 'offer', 'withdraw']);
/** Handler names that are not verbs, and the verb they stand for. */
const VERB: Readonly<Record<string, string>> = { one: 'get', detail: 'get' };

/**
 * Every operation's id, from its controller and handler (`FencesController.one` → `getFence`,
 * `DevicesController.list` → `listDevices`): ids that read as method names in generated clients,
 * unique because handler names are unique within a controller. An explicit
 * `@ApiOperation({ operationId })` wins.
 */
export function operationIdOf(controllerKey: string, methodKey: string): string {
  const resource = controllerKey.replace(/Controller$/, '');
  const noun = ONE_OBJECT.has(methodKey) && /[^s]s$/.test(resource) ? resource.slice(0, -1) : resource;
  return `${VERB[methodKey] ?? methodKey}${noun}`;
}

type Operation = { security?: unknown; tags?: string[]; responses?: Record<string, unknown> };

/**
 * What every operation may answer whoever wrote it, added here once (docs/api.md §1, §3): 429
 * `RATE_LIMITED` wherever an account's calls are counted — every route that authenticates, which is
 * every route but the metrics scrape (public ones too, when they are sent credentials) — and 503
 * `UNAVAILABLE` when the database, Redis or the queue is down, which any route that authenticates or
 * stores may meet. Both carry Retry-After.
 */
function addCommonResponses(operation: Operation, route: CatalogRoute): void {
  const responses = (operation.responses ??= {});
  // By the declared level: a metrics route is never counted, token or not.
  if (route.declared !== 'metrics' && !responses['429']) responses['429'] = errorResponse(['RATE_LIMITED']);
  if (!responses['503']) responses['503'] = errorResponse(['UNAVAILABLE']);
  for (const status of ['429', '503'])
    if (responses[status]) (responses[status] as { headers?: Record<string, unknown> }).headers = { 'Retry-After': RETRY_AFTER_HEADER };
}

const RETRY_AFTER_HEADER = { description: 'Seconds to wait before trying again.', schema: { type: 'integer', minimum: 1 } };

/**
 * The OpenAPI document, with what generators need besides the routes' own decorators: the server,
 * the license, every tag declared, operation ids that read as method names, each operation's
 * security from the route's auth level, and the answers every route may give (429, 503).
 */
export function buildOpenApiDocument(app: INestApplication, settings: OpenApiSettings): OpenAPIObject {
  const builder = new DocumentBuilder()
    .setTitle('Device Telemetry Service')
    .setDescription(
      'HTTP/JSON interface to an IoT device-management platform. Every response is the envelope ' +
        '`{errors, debug, meta, messages, data, success}`; errors carry stable `code`s (see the README).',
    )
    .setVersion(`${readBuildInfo().version} (api ${API_VERSION})`)
    .setLicense('MIT', 'https://opensource.org/licenses/MIT')
    // Relative: the service that serves this document, wherever it is reached (PUBLIC_BASE_URL, a proxy, localhost).
    .addServer('/', 'This service: the origin serving this document')
    .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'opaque', description: 'API token (64 hex). `Authorization: <token>` works too.' }, 'bearer')
    .addApiKey({ type: 'apiKey', in: 'header', name: 'token', description: 'API token in a `token` header.' }, 'token')
    .addCookieAuth(settings.cookieName, { type: 'apiKey', in: 'cookie', name: settings.cookieName, description: 'Session from POST /auth/login.' }, 'session')
    .addApiKey({ type: 'apiKey', in: 'header', name: 'X-Ingest-Secret', description: 'Platform ingest secret.' }, 'ingestSecret')
    .addBearerAuth(
      { type: 'http', scheme: 'bearer', bearerFormat: 'opaque', description: 'METRICS_TOKEN (declared only when it is set: GET /metrics is open otherwise).' },
      'metricsToken',
    );
  for (const [name, description] of Object.entries(API_TAGS)) builder.addTag(name, description);
  const document = SwaggerModule.createDocument(app, builder.build(), { operationIdFactory: operationIdOf });
  emptyAnyValueSchemas(document);
  // Security as configured (GET /routes says the same): an open metrics route documents none.
  const routes = app.get(RouteCatalog).catalog();
  for (const route of routes) {
    const operation = (document.paths[route.path] as Record<string, Operation> | undefined)?.[route.method.toLowerCase()];
    if (!operation) continue;
    operation.security = SECURITY[route.auth];
    addCommonResponses(operation, route);
  }
  // Without METRICS_TOKEN no operation takes the scrape token: the scheme is not declared either.
  if (!routes.some((r) => r.auth === 'metrics')) delete document.components?.securitySchemes?.metricsToken;
  // A tag a route uses without a line in API_TAGS is still declared (generators need it), and the
  // OpenAPI check names it.
  const declared = new Set((document.tags ?? []).map((t) => t.name));
  for (const methods of Object.values(document.paths))
    for (const operation of Object.values(methods as Record<string, Operation>))
      for (const tag of operation.tags ?? []) if (!declared.has(tag) && declared.add(tag)) (document.tags ??= []).push({ name: tag });
  return document;
}

/** Any-value members (ANY_VALUE_SCHEMA) keep only their description: a schema without `type` matches any JSON value. */
function emptyAnyValueSchemas(node: unknown): void {
  if (Array.isArray(node)) for (const n of node) emptyAnyValueSchemas(n);
  else if (node && typeof node === 'object') {
    const schema = node as Record<string, unknown>;
    if (schema[ANY_VALUE_MARK] === true) for (const key of Object.keys(schema)) if (key !== 'description') delete schema[key];
    for (const value of Object.values(schema)) emptyAnyValueSchemas(value);
  }
}

/** Swagger UI at /docs, the document at /docs/openapi.json. */
export function mountOpenApi(app: INestApplication, settings: OpenApiSettings): void {
  SwaggerModule.setup('docs', app, () => buildOpenApiDocument(app, settings), { jsonDocumentUrl: 'docs/openapi.json', yamlDocumentUrl: 'docs/openapi.yaml' });
}
