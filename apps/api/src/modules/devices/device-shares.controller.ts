import { Body, Controller, Delete, Get, Param, Post } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { Eui } from '@dts/domain';
import type { AuthPrincipal } from '../../common/auth/auth-principal';
import { CurrentAccount, KeyRight } from '../../common/auth/auth.decorators';
import { EUI_PARAM, EuiParamPipe } from '../../common/http/eui-param.pipe';
import { IntParamPipe } from '../../common/http/int-param.pipe';
import { ApiEnvelope, ApiErrors } from '../../common/openapi/api-envelope.decorator';
import { DeviceSharesService } from './device-shares.service';
import { DeviceShareResponse, DeviceUnsharedResponse } from './dto/device.responses';
import { DeviceShareEntryResponse } from './dto/handover.dto';
import { ShareDeviceDto } from './dto/share-device.dto';

@ApiTags('devices')
@Controller('user/device/share')
@KeyRight('devices')
export class DeviceSharesController {
  constructor(private readonly shares: DeviceSharesService) {}

  @Get(':eui')
  @ApiOperation({ summary: 'The accounts the device is shared with (owner only)' })
  @ApiParam(EUI_PARAM)
  @ApiEnvelope([DeviceShareEntryResponse])
  @ApiErrors('VALIDATION_FAILED', 'AUTH_REQUIRED', 'FORBIDDEN', 'NOT_FOUND')
  list(@CurrentAccount() me: AuthPrincipal, @Param('eui', EuiParamPipe) eui: Eui) {
    return this.shares.list(me, eui);
  }

  @Post(':eui')
  @ApiOperation({ summary: 'Share the device with another account (owner only)' })
  @ApiParam(EUI_PARAM)
  @ApiEnvelope(DeviceShareResponse, { status: 201 })
  @ApiErrors('VALIDATION_FAILED', 'AUTH_REQUIRED', 'FORBIDDEN', 'NOT_FOUND')
  share(@CurrentAccount() me: AuthPrincipal, @Param('eui', EuiParamPipe) eui: Eui, @Body() dto: ShareDeviceDto) {
    return this.shares.share(me, eui, dto.username);
  }

  @Delete(':eui/:uid')
  @ApiOperation({ summary: 'End a share: the owner any, a shared user its own' })
  @ApiParam(EUI_PARAM)
  @ApiEnvelope(DeviceUnsharedResponse)
  @ApiErrors('VALIDATION_FAILED', 'AUTH_REQUIRED', 'FORBIDDEN', 'NOT_FOUND')
  unshare(@CurrentAccount() me: AuthPrincipal, @Param('eui', EuiParamPipe) eui: Eui, @Param('uid', IntParamPipe) uid: number) {
    return this.shares.unshare(me, eui, uid);
  }
}
