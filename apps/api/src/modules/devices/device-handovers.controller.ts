import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { Eui } from '@dts/domain';
import type { AuthPrincipal } from '../../common/auth/auth-principal';
import { CurrentAccount, KeyRight } from '../../common/auth/auth.decorators';
import { EUI_PARAM, EuiParamPipe } from '../../common/http/eui-param.pipe';
import { ApiEnvelope, ApiErrors } from '../../common/openapi/api-envelope.decorator';
import { DeviceHandoversService } from './device-handovers.service';
import { DeviceMetaResponse } from './dto/device.responses';
import { HandoverClosedResponse, HandoverOfferResponse, HandoverOffersResponse } from './dto/handover.dto';
import { ShareDeviceDto } from './dto/share-device.dto';

@ApiTags('devices')
@Controller('user/device/handover')
@KeyRight('devices')
export class DeviceHandoversController {
  constructor(private readonly handovers: DeviceHandoversService) {}

  @Get()
  @ApiOperation({ summary: 'Hand-over offers the caller received and made' })
  @ApiEnvelope(HandoverOffersResponse)
  @ApiErrors('AUTH_REQUIRED')
  list(@CurrentAccount() me: AuthPrincipal) {
    return this.handovers.list(me);
  }

  @Post(':eui')
  @ApiOperation({
    summary: 'Offer the device to another account (owner only; replaces an open offer)',
    description: 'The device moves only when that account accepts. `owner_ref` in POST /user/device/meta/{eui} makes the same offer by account id.',
  })
  @ApiParam(EUI_PARAM)
  @ApiEnvelope(HandoverOfferResponse, { status: 201 })
  @ApiErrors('VALIDATION_FAILED', 'AUTH_REQUIRED', 'FORBIDDEN', 'NOT_FOUND')
  offer(@CurrentAccount() me: AuthPrincipal, @Param('eui', EuiParamPipe) eui: Eui, @Body() dto: ShareDeviceDto) {
    return this.handovers.offerTo(me, eui, dto.username);
  }

  @Post(':eui/accept')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Accept an offer made to the caller: the device becomes its own',
    description:
      'Checked against the caller’s max_devices now. The previous owner’s network and codec fall back to the defaults (the simulated network, the raw decoder), the assigned user is cleared, every share ends, and the previous owner’s signed image links stop working.',
  })
  @ApiParam(EUI_PARAM)
  @ApiEnvelope(DeviceMetaResponse)
  @ApiErrors('VALIDATION_FAILED', 'AUTH_REQUIRED', 'NOT_FOUND', 'DEVICE_LIMIT_REACHED')
  accept(@CurrentAccount() me: AuthPrincipal, @Param('eui', EuiParamPipe) eui: Eui) {
    return this.handovers.accept(me, eui);
  }

  @Post(':eui/decline')
  @HttpCode(200)
  @ApiOperation({ summary: 'Decline an offer made to the caller' })
  @ApiParam(EUI_PARAM)
  @ApiEnvelope(HandoverClosedResponse)
  @ApiErrors('VALIDATION_FAILED', 'AUTH_REQUIRED', 'NOT_FOUND')
  decline(@CurrentAccount() me: AuthPrincipal, @Param('eui', EuiParamPipe) eui: Eui) {
    return this.handovers.decline(me, eui);
  }

  @Delete(':eui')
  @ApiOperation({ summary: 'Withdraw the device’s open offer (owner only)' })
  @ApiParam(EUI_PARAM)
  @ApiEnvelope(HandoverClosedResponse)
  @ApiErrors('VALIDATION_FAILED', 'AUTH_REQUIRED', 'FORBIDDEN', 'NOT_FOUND')
  withdraw(@CurrentAccount() me: AuthPrincipal, @Param('eui', EuiParamPipe) eui: Eui) {
    return this.handovers.withdraw(me, eui);
  }
}
