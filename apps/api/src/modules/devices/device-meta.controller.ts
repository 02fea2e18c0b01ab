import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { Eui } from '@dts/domain';
import type { AuthPrincipal } from '../../common/auth/auth-principal';
import { CurrentAccount } from '../../common/auth/auth.decorators';
import { EuiParamPipe } from '../../common/http/eui-param.pipe';
import { ApiEnvelope, ApiErrors } from '../../common/openapi/api-envelope.decorator';
import { DeviceMetaService } from './device-meta.service';
import { EUI_PARAM } from './devices.controller';
import { DeviceMetaUpdateDto } from './dto/device-meta-update.dto';
import { DeviceMetaResponse } from './dto/device.responses';

@ApiTags('devices')
@Controller('user/device/meta')
export class DeviceMetaController {
  constructor(private readonly meta: DeviceMetaService) {}

  // Declared before meta/{eui}, which would otherwise take "all" for an EUI.
  @Get('all')
  @ApiOperation({ summary: 'Metadata of every device of the account' })
  @ApiEnvelope([DeviceMetaResponse])
  @ApiErrors('AUTH_REQUIRED')
  all(@CurrentAccount() me: AuthPrincipal) {
    return this.meta.all(me);
  }

  @Get(':eui')
  @ApiOperation({ summary: 'Metadata of one device, as an array of one' })
  @ApiParam(EUI_PARAM)
  @ApiEnvelope([DeviceMetaResponse])
  @ApiErrors('VALIDATION_FAILED', 'AUTH_REQUIRED', 'NOT_FOUND')
  one(@CurrentAccount() me: AuthPrincipal, @Param('eui', EuiParamPipe) eui: Eui) {
    return this.meta.one(me, eui);
  }

  @Post(':eui')
  @HttpCode(200)
  @ApiOperation({ summary: 'Update the writable metadata members; changing decoder_ref re-decodes the history' })
  @ApiParam(EUI_PARAM)
  @ApiEnvelope([DeviceMetaResponse])
  @ApiErrors('VALIDATION_FAILED', 'AUTH_REQUIRED', 'FORBIDDEN', 'NOT_FOUND', 'DEVICE_LIMIT_REACHED')
  update(@CurrentAccount() me: AuthPrincipal, @Param('eui', EuiParamPipe) eui: Eui, @Body() dto: DeviceMetaUpdateDto) {
    return this.meta.update(me, eui, dto);
  }
}
