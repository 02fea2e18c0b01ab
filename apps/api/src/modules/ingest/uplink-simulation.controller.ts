import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { Eui } from '@dts/domain';
import type { AuthPrincipal } from '../../common/auth/auth-principal';
import { CurrentAccount, KeyRight } from '../../common/auth/auth.decorators';
import { EUI_PARAM, EuiParamPipe } from '../../common/http/eui-param.pipe';
import { ApiEnvelope, ApiErrors } from '../../common/openapi/api-envelope.decorator';
import { DeviceAccessService } from '../devices/device-access.service';
import { IngestResultResponse } from './dto/ingest-result.response';
import { SimulateUplinkDto } from './dto/simulate-uplink.dto';
import { IngestService } from './ingest.service';

/**
 * A person's test uplink from the console. The ingest routes take network credentials (the
 * platform secret or an API token), not a session; this route takes the person's credentials and
 * hands the item to the same ingestion as POST /ingest/rest (IngestService.simulate), never a path
 * of its own. Sending data in is the `ingest` right of a key; the default role of a change
 * (operator) applies in an organisation.
 */
@ApiTags('data')
@Controller('user/device/uplink')
@KeyRight('ingest')
export class UplinkSimulationController {
  constructor(
    private readonly access: DeviceAccessService,
    private readonly ingest: IngestService,
  ) {}

  @Post(':eui/simulate')
  @HttpCode(201)
  @ApiOperation({
    summary:
      'Simulate an uplink of the device: stored, decoded, sent to the live feed, rules and integrations as a delivery to POST /ingest/rest, recorded under the simulated network',
  })
  @ApiParam(EUI_PARAM)
  @ApiEnvelope(IngestResultResponse, { status: 201 })
  @ApiErrors('VALIDATION_FAILED', 'MALFORMED_JSON', 'AUTH_REQUIRED', 'FORBIDDEN', 'NOT_FOUND')
  async simulate(@CurrentAccount() me: AuthPrincipal, @Param('eui', EuiParamPipe) eui: Eui, @Body() dto: SimulateUplinkDto) {
    // As an API token at POST /ingest/rest: the account's own devices only (a shared one is 403, not the sharer's to feed).
    const device = await this.access.requireOwner(me, eui);
    return this.ingest.simulate(device.ownerId, device.eui, dto);
  }
}
