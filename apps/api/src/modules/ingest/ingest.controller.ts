import { applyDecorators, Body, Controller, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiExtraModels, ApiOperation, ApiParam, ApiQuery, ApiTags } from '@nestjs/swagger';
import { INGEST_NETWORKS, type IngestNetwork, ingestHandlerName } from '@dts/domain';
import { IngestAuth } from '../../common/auth/auth.decorators';
import { CurrentIngestCaller, type IngestCaller } from '../../common/auth/ingest-caller';
import { IntParamPipe } from '../../common/http/int-param.pipe';
import { ApiEnvelope, ApiErrors } from '../../common/openapi/api-envelope.decorator';
import { IngestResultResponse } from './dto/ingest-result.response';
import { RestUplinkBody } from './dto/rest-uplink.body';
import { IngestService } from './ingest.service';

/**
 * Uplinks in: one route per network of the registry (libs/domain networks/registry.ts), made from
 * its entry below, so that a network is added without touching this file. Authenticated by the
 * platform ingest secret (X-Ingest-Secret, or in a token header) or by an API token of the device
 * owner's account.
 */
@ApiTags('ingest')
@Controller('ingest')
@IngestAuth()
// The documentation class of the REST network's items, which its entry's body schema refers to.
@ApiExtraModels(RestUplinkBody)
export class IngestController {
  constructor(readonly ingest: IngestService) {}
}

/** A route's handler: `POST /ingest/<path>` delivers to the network; `POST /ingest/<path>/{uid}` to that network of its kind. */
type Handler = (this: IngestController, caller: IngestCaller, query: Record<string, unknown>, body: unknown, uid?: number) => unknown;

/** Adds one network's route to the controller, as if written out with its decorators. */
function addRoute(network: IngestNetwork): void {
  const { ingest } = network;
  const name = ingestHandlerName(ingest);
  const proto = IngestController.prototype as unknown as Record<string, Handler>;
  if (name in proto) throw new Error(`two ingest routes named ${name}`);
  const handler: Handler = ingest.byUid
    ? function (caller, query, body, uid) {
        return this.ingest.deliverByUid(network, uid ?? 0, caller, body, query);
      }
    : function (caller, query, body) {
        return this.ingest.deliver(network, caller, body, query);
      };
  // The OpenAPI explorer names the operation by the function's own name (operationIdOf), as a written handler's.
  Object.defineProperty(handler, 'name', { value: name });
  Object.defineProperty(proto, name, { value: handler, writable: true, configurable: true, enumerable: false });
  const descriptor = Object.getOwnPropertyDescriptor(proto, name)!;
  // What TypeScript's decorator metadata would say of the parameters (the pipes read it).
  Reflect.defineMetadata('design:paramtypes', ingest.byUid ? [Object, Object, Object, Number] : [Object, Object, Object], proto, name);
  Reflect.defineMetadata('design:returntype', Promise, proto, name);
  const { doc } = ingest;
  applyDecorators(
    Post(ingest.byUid ? `${ingest.path}/:uid` : ingest.path),
    HttpCode(202),
    ApiOperation({ summary: doc.summary, description: doc.description }),
    ...(ingest.byUid ? [ApiParam({ name: 'uid', description: `The ${network.name} network’s uid.` })] : []),
    ...(doc.query ? [ApiQuery({ name: doc.query.name, enum: [...doc.query.values], required: true })] : []),
    ...(ingest.binary ? [ApiConsumes('application/json', 'application/octet-stream')] : []),
    ApiBody({ ...doc.body, schema: doc.body.schema as Record<string, never> }),
    ApiEnvelope(IngestResultResponse, { status: 202 }),
    ingest.byUid
      ? ApiErrors('VALIDATION_FAILED', 'MALFORMED_JSON', 'AUTH_REQUIRED', 'INVALID_TOKEN', 'NOT_FOUND', 'PAYLOAD_TOO_LARGE')
      : ApiErrors('VALIDATION_FAILED', 'MALFORMED_JSON', 'AUTH_REQUIRED', 'INVALID_TOKEN', 'PAYLOAD_TOO_LARGE'),
  )(proto, name, descriptor);
  CurrentIngestCaller()(proto, name, 0);
  Query()(proto, name, 1);
  Body()(proto, name, 2);
  if (ingest.byUid) Param('uid', IntParamPipe)(proto, name, 3);
}

for (const network of INGEST_NETWORKS) addRoute(network);
