import { Body, Controller, HttpCode, Post, Query, Req } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { IngestAuth } from '../../common/auth/auth.decorators';
import { ApiException } from '../../common/http/api.exception';
import { ApiEnvelope, ApiErrors } from '../../common/openapi/api-envelope.decorator';
import { IngestResultResponse } from './dto/ingest-result.response';
import { CommandEventsService } from '../commands/command-events.service';
import { IngestService } from './ingest.service';

const WEBHOOK_NOTE =
  'The body is the network’s own message: members this service does not use are ignored (the network defines them). ' +
  'Answers 202 with a result per item; only a failure of the whole request (credentials, malformed JSON, body too large) is a 4xx.';

/**
 * Uplinks in. Authenticated by the platform ingest secret (X-Ingest-Secret, or in a token header)
 * or by an API token of the device owner's account.
 */
@ApiTags('ingest')
@Controller('ingest')
@IngestAuth()
export class IngestController {
  constructor(
    private readonly ingest: IngestService,
    private readonly events: CommandEventsService,
  ) {}

  @Post('ttn')
  @HttpCode(202)
  @ApiOperation({ summary: 'The Things Stack v3 webhook: uplinks, and downlink sent/ack/nack/failed events', description: WEBHOOK_NOTE })
  @ApiBody({ schema: { type: 'object', description: 'The Things Stack v3 uplink message (end_device_ids, correlation_ids, received_at, uplink_message, simulated)' } })
  @ApiEnvelope(IngestResultResponse, { status: 202 })
  @ApiErrors('VALIDATION_FAILED', 'MALFORMED_JSON', 'AUTH_REQUIRED', 'INVALID_TOKEN', 'PAYLOAD_TOO_LARGE')
  ttn(@Req() req: Request, @Body() body: unknown) {
    return this.events.isTtsDownlinkEvent(body) ? this.events.tts(req, body) : this.ingest.ttn(req, body);
  }

  @Post('chirpstack')
  @HttpCode(202)
  @ApiOperation({ summary: 'ChirpStack v4 HTTP integration', description: `${WEBHOOK_NOTE} The event comes in the query: up (uplinks), txack and ack (downlinks).` })
  @ApiQuery({ name: 'event', enum: ['up', 'txack', 'ack'], required: true })
  @ApiBody({ schema: { type: 'object', description: 'ChirpStack v4 event (deduplicationId, time, deviceInfo, fCnt, fPort, data, rxInfo, txInfo)' } })
  @ApiEnvelope(IngestResultResponse, { status: 202 })
  @ApiErrors('VALIDATION_FAILED', 'MALFORMED_JSON', 'AUTH_REQUIRED', 'INVALID_TOKEN', 'PAYLOAD_TOO_LARGE')
  chirpstack(@Req() req: Request, @Query('event') event: unknown, @Body() body: unknown) {
    if (event === 'txack' || event === 'ack') return this.events.chirpstack(req, event, body);
    if (event !== 'up') throw ApiException.validation('event', 'event must be up, txack or ack');
    return this.ingest.chirpstack(req, body);
  }

  @Post('rest')
  @HttpCode(202)
  @ApiOperation({
    summary: 'Generic uplinks: one object or an array of up to 1,000',
    description:
      'Each item: {devEUI, port, payload_raw (Base64) | payload_hex, time_stamp_unix?, network?, SF?, RSSI?, SNR?, geoloc_lat?, geoloc_lon?, geoloc_alt?, fcnt?, gateways?: [{gateway_id, rssi?, snr?, lat?, lon?}]}. ' +
      'Unknown members refuse the item. With fcnt and time_stamp_unix, a redelivered item is stored once.',
  })
  @ApiEnvelope(IngestResultResponse, { status: 202 })
  @ApiErrors('VALIDATION_FAILED', 'MALFORMED_JSON', 'AUTH_REQUIRED', 'INVALID_TOKEN', 'PAYLOAD_TOO_LARGE')
  rest(@Req() req: Request, @Body() body: unknown) {
    return this.ingest.rest(req, body);
  }
}
