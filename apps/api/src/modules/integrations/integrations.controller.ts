import { Body, Controller, HttpCode, Delete, Get, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AuthPrincipal } from '../../common/auth/auth-principal';
import { CurrentAccount, KeyRight, OrgRole } from '../../common/auth/auth.decorators';
import { IntParamPipe } from '../../common/http/int-param.pipe';
import { ApiEnvelope, ApiErrors } from '../../common/openapi/api-envelope.decorator';
import {
  CreatedIntegrationResponse,
  CreateIntegrationDto,
  DeliveriesQueryDto,
  DeliveryResponse,
  IntegrationDeletedResponse,
  IntegrationResponse,
  TestSendResponse,
  UpdateIntegrationDto,
} from './dto';
import { IntegrationsService } from './integrations.service';

@ApiTags('integrations')
@Controller('user/integration')
@KeyRight('automation')
// Where an organisation's data goes, and the secrets to it: its admins' and owners' (docs/api.md §20).
@OrgRole('admin')
export class IntegrationsController {
  constructor(private readonly integrations: IntegrationsService) {}

  @Get()
  @ApiOperation({ summary: 'The account’s outbound integrations (webhooks, MQTT brokers), never their secrets' })
  @ApiEnvelope([IntegrationResponse])
  @ApiErrors('AUTH_REQUIRED')
  list(@CurrentAccount() me: AuthPrincipal) {
    return this.integrations.list(me);
  }

  @Get(':uid')
  @ApiOperation({ summary: 'One integration' })
  @ApiEnvelope(IntegrationResponse)
  @ApiErrors('VALIDATION_FAILED', 'AUTH_REQUIRED', 'NOT_FOUND')
  one(@CurrentAccount() me: AuthPrincipal, @Param('uid', IntParamPipe) uid: number) {
    return this.integrations.one(me, uid);
  }

  @Post()
  @ApiOperation({
    summary: 'Send events to a webhook (Standard Webhooks, signed) or publish them to an MQTT broker',
    description: 'A webhook’s signing secret (`whsec_…`) is in this answer only. Event bodies: docs/api.md §18.',
  })
  @ApiEnvelope(CreatedIntegrationResponse, { status: 201 })
  @ApiErrors('VALIDATION_FAILED', 'MALFORMED_JSON', 'AUTH_REQUIRED', 'NOT_FOUND', 'LIMIT_REACHED')
  create(@CurrentAccount() me: AuthPrincipal, @Body() dto: CreateIntegrationDto) {
    return this.integrations.create(me, dto);
  }

  @Patch(':uid')
  @ApiOperation({ summary: 'Change an integration; `enabled: true` re-enables one the service disabled, and what waited goes out' })
  @ApiEnvelope(IntegrationResponse)
  @ApiErrors('VALIDATION_FAILED', 'MALFORMED_JSON', 'AUTH_REQUIRED', 'NOT_FOUND')
  update(@CurrentAccount() me: AuthPrincipal, @Param('uid', IntParamPipe) uid: number, @Body() dto: UpdateIntegrationDto) {
    return this.integrations.update(me, uid, dto);
  }

  @Delete(':uid')
  @ApiOperation({ summary: 'Delete an integration and its deliveries' })
  @ApiEnvelope(IntegrationDeletedResponse)
  @ApiErrors('VALIDATION_FAILED', 'AUTH_REQUIRED', 'NOT_FOUND')
  delete(@CurrentAccount() me: AuthPrincipal, @Param('uid', IntParamPipe) uid: number) {
    return this.integrations.delete(me, uid);
  }

  @Get(':uid/deliveries')
  @ApiOperation({ summary: 'The integration’s deliveries, newest first: state, attempts, last status, latency and error' })
  @ApiEnvelope([DeliveryResponse])
  @ApiErrors('VALIDATION_FAILED', 'AUTH_REQUIRED', 'NOT_FOUND')
  deliveries(@CurrentAccount() me: AuthPrincipal, @Param('uid', IntParamPipe) uid: number, @Query() q: DeliveriesQueryDto) {
    return this.integrations.listDeliveries(me, uid, q);
  }

  @Post(':uid/deliveries/:id/redeliver')
  @HttpCode(200)
  @ApiOperation({ summary: 'Send a delivery again (whatever its state), in its device’s turn' })
  @ApiEnvelope(DeliveryResponse)
  @ApiErrors('VALIDATION_FAILED', 'AUTH_REQUIRED', 'NOT_FOUND')
  redeliver(@CurrentAccount() me: AuthPrincipal, @Param('uid', IntParamPipe) uid: number, @Param('id', IntParamPipe) id: number) {
    return this.integrations.redeliver(me, uid, id);
  }

  @Post(':uid/test')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Send one signed test event now and answer with how it went (nothing stored, nothing retried)',
    description:
      'Body `{type: "test", version: 1, id: "evt_test_…", timestamp, devEUI: null, data: {integration, name, message}}` with the Standard Webhooks headers of a real event, or published to the topic with `{devEUI}` `test` and `{event}` `test`. Same address checks and timeout as deliveries.',
  })
  @ApiEnvelope(TestSendResponse)
  @ApiErrors('VALIDATION_FAILED', 'AUTH_REQUIRED', 'NOT_FOUND')
  test(@CurrentAccount() me: AuthPrincipal, @Param('uid', IntParamPipe) uid: number) {
    return this.integrations.test(me, uid);
  }
}
