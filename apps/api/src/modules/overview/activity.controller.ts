import { Controller, Get, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type ActivityEntryWire, toUnix } from '@dts/domain';
import { DeviceListRepository } from '@dts/persistence';
import type { AuthPrincipal } from '../../common/auth/auth-principal';
import { CurrentAccount } from '../../common/auth/auth.decorators';
import { ApiEnvelope, ApiErrors } from '../../common/openapi/api-envelope.decorator';
import { ActivityEntryResponse, ActivityQueryDto } from './activity.dto';

/** What happened lately across the account, for the console's overview (one query). */
@ApiTags('account')
@Controller('user/activity')
export class ActivityController {
  constructor(private readonly devices: DeviceListRepository) {}

  @Get()
  @ApiOperation({
    summary:
      'The account’s recent activity, newest first: devices heard from (each once, at its last activity), commands created or moved, alerts raised or cleared',
  })
  @ApiEnvelope([ActivityEntryResponse])
  @ApiErrors('AUTH_REQUIRED', 'VALIDATION_FAILED')
  async list(@CurrentAccount() me: AuthPrincipal, @Query() query: ActivityQueryDto): Promise<ActivityEntryWire[]> {
    const rows = await this.devices.activity(me.accountId, query.limit ?? 30);
    return rows.map((r) => ({
      kind: r.kind,
      at_unix: toUnix(r.at),
      devEUI: r.eui,
      label: r.label,
      uid: r.ref === null ? null : Number(r.ref),
      state: r.state,
      text: r.text,
    }));
  }
}
