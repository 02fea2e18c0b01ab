import { Body, Controller, Delete, Get, Param, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { Eui } from '@dts/domain';
import type { AuthPrincipal } from '../../common/auth/auth-principal';
import { CurrentAccount, KeyRight } from '../../common/auth/auth.decorators';
import { EUI_PARAM, EuiParamPipe } from '../../common/http/eui-param.pipe';
import { IntParamPipe } from '../../common/http/int-param.pipe';
import { ApiEnvelope, ApiErrors } from '../../common/openapi/api-envelope.decorator';
import { DevicesService } from './devices.service';
import { AutocompleteQueryDto } from './dto/autocomplete-query.dto';
import { DeviceMetaResponse, DeviceRelationResponse, DeviceRemovedResponse } from './dto/device.responses';
import { RegisterDeviceDto } from './dto/register-device.dto';

@ApiTags('devices')
@Controller('user/device')
@KeyRight('devices')
export class DevicesController {
  constructor(private readonly devices: DevicesService) {}

  @Get()
  @ApiOperation({ summary: 'EUIs of every device the account owns or that is shared with it' })
  @ApiEnvelope(['string'])
  @ApiErrors('AUTH_REQUIRED')
  list(@CurrentAccount() me: AuthPrincipal) {
    return this.devices.list(me);
  }

  @Get('autocomplete')
  @ApiOperation({ summary: 'EUIs of the caller’s devices whose EUI or label contains the text (at most 25)' })
  @ApiEnvelope(['string'])
  @ApiErrors('VALIDATION_FAILED', 'AUTH_REQUIRED', 'QUERY_TIMEOUT')
  autocomplete(@CurrentAccount() me: AuthPrincipal, @Query() query: AutocompleteQueryDto) {
    return this.devices.autocomplete(me, query);
  }

  @Get('result/:eui/:uid')
  @ApiOperation({ summary: 'Whether account {uid} owns the device, shares it, or neither' })
  @ApiParam(EUI_PARAM)
  @ApiEnvelope(DeviceRelationResponse)
  @ApiErrors('VALIDATION_FAILED', 'AUTH_REQUIRED', 'NOT_FOUND')
  relation(@CurrentAccount() me: AuthPrincipal, @Param('eui', EuiParamPipe) eui: Eui, @Param('uid', IntParamPipe) uid: number) {
    return this.devices.relation(me, eui, uid);
  }

  @Post(':eui')
  @ApiOperation({ summary: 'Register a device on the account' })
  @ApiParam(EUI_PARAM)
  @ApiEnvelope(DeviceMetaResponse, { status: 201 })
  @ApiErrors('VALIDATION_FAILED', 'AUTH_REQUIRED', 'ACCOUNT_EXPIRED', 'DEVICE_LIMIT_REACHED', 'DEVICE_EXISTS', 'DEVICE_OWNED_ELSEWHERE')
  register(@CurrentAccount() me: AuthPrincipal, @Param('eui', EuiParamPipe) eui: Eui, @Body() dto: RegisterDeviceDto) {
    return this.devices.register(me, eui, dto);
  }

  @Delete(':eui')
  @ApiOperation({ summary: 'Remove the device: the owner deletes it with its history; a shared user only drops it' })
  @ApiParam(EUI_PARAM)
  @ApiEnvelope(DeviceRemovedResponse)
  @ApiErrors('VALIDATION_FAILED', 'AUTH_REQUIRED', 'NOT_FOUND')
  remove(@CurrentAccount() me: AuthPrincipal, @Param('eui', EuiParamPipe) eui: Eui) {
    return this.devices.remove(me, eui);
  }
}
