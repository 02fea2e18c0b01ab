import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { Eui } from '@dts/domain';
import type { AuthPrincipal } from '../../common/auth/auth-principal';
import { CurrentAccount, KeyRight } from '../../common/auth/auth.decorators';
import { EUI_PARAM, EuiParamPipe } from '../../common/http/eui-param.pipe';
import { ApiEnvelope, ApiErrors } from '../../common/openapi/api-envelope.decorator';
import { DeviceListService } from './device-list.service';
import { DeviceMetaService } from './device-meta.service';
import { DeviceListQueryDto } from './dto/device-list-query.dto';
import { DeviceMetaUpdateDto } from './dto/device-meta-update.dto';
import { DeviceMetaResponse } from './dto/device.responses';

@ApiTags('devices')
@Controller('user/device/meta')
@KeyRight('devices')
export class DeviceMetaController {
  constructor(
    private readonly meta: DeviceMetaService,
    private readonly list: DeviceListService,
  ) {}

  // Declared before meta/{eui}, which would otherwise take "all" for an EUI.
  @Get('all')
  @ApiOperation({
    summary: 'Metadata of every device of the account; optionally filtered, sorted and paged',
    description:
      'Without query members: every device, ordered by EUI, `meta: []`. With any of them: the matching devices in the chosen order, at most `limit`, and `meta: {total, next_cursor, online_threshold_s}`; pass `next_cursor` as `cursor` (same sort and filters) for the next page.',
  })
  @ApiEnvelope([DeviceMetaResponse], {
    meta: {
      oneOf: [
        { type: 'array', items: {}, example: [] },
        {
          type: 'object',
          properties: { total: { type: 'integer' }, next_cursor: { type: 'string', nullable: true }, online_threshold_s: { type: 'integer' } },
        },
      ],
    },
  })
  @ApiErrors('VALIDATION_FAILED', 'AUTH_REQUIRED', 'QUERY_TIMEOUT')
  all(@CurrentAccount() me: AuthPrincipal, @Query() query: DeviceListQueryDto) {
    return this.list.all(me, query);
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
  @ApiOperation({
    summary: 'Update the writable metadata members; changing decoder_ref re-decodes the history',
    description:
      '`owner_ref`, `user_ref` and `uplink_retention_days` are the owner’s: a user the device is shared with gets 403 FORBIDDEN naming the member. `uplink_retention_days` longer than the account’s retention in force is 400 (a device may only shorten it).',
  })
  @ApiParam(EUI_PARAM)
  @ApiEnvelope([DeviceMetaResponse])
  @ApiErrors('VALIDATION_FAILED', 'AUTH_REQUIRED', 'FORBIDDEN', 'NOT_FOUND', 'DEVICE_LIMIT_REACHED')
  update(@CurrentAccount() me: AuthPrincipal, @Param('eui', EuiParamPipe) eui: Eui, @Body() dto: DeviceMetaUpdateDto) {
    return this.meta.update(me, eui, dto);
  }
}
