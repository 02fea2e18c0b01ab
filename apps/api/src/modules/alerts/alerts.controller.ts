import { Controller, HttpCode, Get, Param, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AuthPrincipal } from '../../common/auth/auth-principal';
import { CurrentAccount, KeyRight } from '../../common/auth/auth.decorators';
import { IntParamPipe } from '../../common/http/int-param.pipe';
import { ApiEnvelope, ApiErrors } from '../../common/openapi/api-envelope.decorator';
import { AlertQueryDto, AlertResponse } from './dto/alert.dto';
import { AlertsService } from './alerts.service';

@ApiTags('alerts')
@Controller('user/alert')
@KeyRight('automation')
export class AlertsController {
  constructor(private readonly alerts: AlertsService) {}

  @Get()
  @ApiOperation({ summary: 'The account’s alerts, newest first; by time raised, state and device' })
  @ApiEnvelope([AlertResponse])
  @ApiErrors('VALIDATION_FAILED', 'AUTH_REQUIRED', 'NOT_FOUND')
  list(@CurrentAccount() me: AuthPrincipal, @Query() q: AlertQueryDto) {
    return this.alerts.list(me, q);
  }

  @Get(':uid')
  @ApiOperation({ summary: 'One alert' })
  @ApiEnvelope(AlertResponse)
  @ApiErrors('VALIDATION_FAILED', 'AUTH_REQUIRED', 'NOT_FOUND')
  one(@CurrentAccount() me: AuthPrincipal, @Param('uid', IntParamPipe) uid: number) {
    return this.alerts.one(me, uid);
  }

  @Post(':uid/ack')
  @HttpCode(200)
  @ApiOperation({ summary: 'Acknowledge an alert (it clears only when its condition ends); again is harmless' })
  @ApiEnvelope(AlertResponse)
  @ApiErrors('VALIDATION_FAILED', 'AUTH_REQUIRED', 'NOT_FOUND')
  acknowledge(@CurrentAccount() me: AuthPrincipal, @Param('uid', IntParamPipe) uid: number) {
    return this.alerts.acknowledge(me, uid);
  }
}
