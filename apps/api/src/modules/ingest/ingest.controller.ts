import { Body, Controller, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiExtraModels, ApiOperation, ApiParam, ApiQuery, ApiTags, getSchemaPath } from '@nestjs/swagger';
import { CHIRPSTACK, CHIRPSTACK_EVENTS, REST, THE_THINGS_STACK, TTS_MESSAGES } from '@dts/domain';
import { IngestAuth } from '../../common/auth/auth.decorators';
import { CurrentIngestCaller, type IngestCaller } from '../../common/auth/ingest-caller';
import { IntParamPipe } from '../../common/http/int-param.pipe';
import { ApiEnvelope, ApiErrors } from '../../common/openapi/api-envelope.decorator';
import { IngestResultResponse } from './dto/ingest-result.response';
import { RestUplinkBody } from './dto/rest-uplink.body';
import { IngestService } from './ingest.service';

const WEBHOOK_NOTE =
  'The body is the network’s own message: members this service does not use are ignored (the network defines them). ' +
  'Answers 202 with a result per item; only a failure of the whole request (credentials, malformed JSON, body too large, a message the network does not send) is a 4xx. ' +
  'An account’s codec runs off the event loop within CPU budgets per delivery and per minute (CODEC_CPU_MS_PER_DELIVERY, CODEC_CPU_MS_PER_MINUTE); ' +
  'past them, or past 64 KiB / 32 levels of decoded output, that account’s uplinks are stored with payload_valid false and the reason, and every other item is stored as usual.';

/**
 * Uplinks in. Authenticated by the platform ingest secret (X-Ingest-Secret, or in a token header)
 * or by an API token of the device owner's account.
 */
@ApiTags('ingest')
@Controller('ingest')
@IngestAuth()
export class IngestController {
  constructor(private readonly ingest: IngestService) {}

  @Post('ttn')
  @HttpCode(202)
  @ApiOperation({
    summary: 'The Things Stack v3 webhook: every message type a webhook sends',
    description:
      `${WEBHOOK_NOTE} The message member says what a body is: uplink_message and uplink_normalized are stored as uplinks; ` +
      'join_accept spans the device’s activity times; downlink_sent/ack/nack/failed move our command (one not sent by this service is ' +
      'reported as NOT_FOUND in the 202 body); location_solved sets the network position of the uplink it was solved from; downlink_queued, ' +
      'downlink_queue_invalidated and service_data are acknowledged. Other than uplinks and downlink statuses, the answer’s `event` says what was done. ' +
      'A body with none of these members is 400 naming `body`.',
  })
  @ApiBody({
    schema: {
      type: 'object',
      description: `The Things Stack v3 ApplicationUp: end_device_ids, correlation_ids, received_at and one of ${TTS_MESSAGES.join(', ')}`,
    },
  })
  @ApiEnvelope(IngestResultResponse, { status: 202 })
  @ApiErrors('VALIDATION_FAILED', 'MALFORMED_JSON', 'AUTH_REQUIRED', 'INVALID_TOKEN', 'PAYLOAD_TOO_LARGE')
  ttn(@CurrentIngestCaller() caller: IngestCaller, @Body() body: unknown) {
    return this.ingest.deliver(THE_THINGS_STACK, caller, body);
  }

  @Post('chirpstack')
  @HttpCode(202)
  @ApiOperation({
    summary: 'ChirpStack v4 HTTP integration: every event, JSON or Protobuf',
    description:
      `${WEBHOOK_NOTE} The event comes in the query: up (uplinks), txack and ack (our downlinks), join (the device’s activity times), ` +
      'status (battery level), location (the network position of the uplink with the same deduplicationId), log (written to the service’s log), ' +
      'integration (acknowledged; JSON only). Other than up, txack and ack, the answer’s `event` says what was done. The body is the JSON ' +
      'encoding (application/json) or the Protobuf one (application/octet-stream, the integration’s protobuf marshaler).',
  })
  @ApiQuery({ name: 'event', enum: [...CHIRPSTACK_EVENTS], required: true })
  @ApiConsumes('application/json', 'application/octet-stream')
  @ApiBody({
    schema: {
      oneOf: [
        { type: 'object', description: 'ChirpStack v4 event, JSON (deduplicationId, time, deviceInfo, fCnt, fPort, data, rxInfo, txInfo, …)' },
        { type: 'string', format: 'binary', description: 'The same event in ChirpStack’s Protobuf encoding (integration.proto)' },
      ],
    },
  })
  @ApiEnvelope(IngestResultResponse, { status: 202 })
  @ApiErrors('VALIDATION_FAILED', 'MALFORMED_JSON', 'AUTH_REQUIRED', 'INVALID_TOKEN', 'PAYLOAD_TOO_LARGE')
  chirpstack(@CurrentIngestCaller() caller: IngestCaller, @Query('event') event: unknown, @Body() body: unknown) {
    return this.ingest.deliver(CHIRPSTACK, caller, body, { event });
  }

  @Post('rest')
  @HttpCode(202)
  @ApiOperation({
    summary: 'Generic uplinks: one object or an array of up to 1,000',
    description:
      'Each item: {devEUI, port, payload_raw (Base64) | payload_hex, time_stamp_unix?, network?, SF?, RSSI?, SNR?, geoloc_lat?, geoloc_lon?, geoloc_alt?, fcnt?, gateways?: [{gateway_id, rssi?, snr?, lat?, lon?}]}. ' +
      'Unknown members refuse the item. With fcnt and time_stamp_unix, a redelivered item is stored once.',
  })
  @ApiExtraModels(RestUplinkBody)
  @ApiBody({
    required: true,
    description: 'One uplink, or an array of 1 to 1,000.',
    schema: {
      oneOf: [{ $ref: getSchemaPath(RestUplinkBody) }, { type: 'array', minItems: 1, maxItems: 1000, items: { $ref: getSchemaPath(RestUplinkBody) } }],
    },
  })
  @ApiEnvelope(IngestResultResponse, { status: 202 })
  @ApiErrors('VALIDATION_FAILED', 'MALFORMED_JSON', 'AUTH_REQUIRED', 'INVALID_TOKEN', 'PAYLOAD_TOO_LARGE')
  rest(@CurrentIngestCaller() caller: IngestCaller, @Body() body: unknown) {
    return this.ingest.deliver(REST, caller, body);
  }

  @Post('http/:uid')
  @HttpCode(202)
  @ApiOperation({
    summary: 'HTTP JSON: any server’s uplinks, read through the network’s field mapping',
    description:
      'The network is the global HTTP JSON network (uid 5: {devEUI, port, payload (hex), time?, rssi?, snr?, fcnt?, id?}) or one of the caller’s own ' +
      '(POST /user/network {adapter: "http-json", mapping}); an account network reaches its account’s devices only. One item or an array of up to ' +
      '1,000 (or the array at the mapping’s `items`). A refused item names the path its mapping gives the member. Another account’s network, or a ' +
      'network of another kind, is 404.',
  })
  @ApiParam({ name: 'uid', description: 'The HTTP JSON network’s uid.' })
  @ApiBody({ schema: { description: 'The sender’s own JSON: one item, an array of items, or an object holding them at the mapping’s `items`.' } })
  @ApiEnvelope(IngestResultResponse, { status: 202 })
  @ApiErrors('VALIDATION_FAILED', 'MALFORMED_JSON', 'AUTH_REQUIRED', 'INVALID_TOKEN', 'NOT_FOUND', 'PAYLOAD_TOO_LARGE')
  http(@CurrentIngestCaller() caller: IngestCaller, @Param('uid', IntParamPipe) uid: number, @Body() body: unknown) {
    return this.ingest.deliverHttpJson(uid, caller, body);
  }
}
