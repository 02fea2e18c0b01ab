import { Controller, Get, Inject } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AccountOverviewWire } from '@dts/domain';
import { DeviceListRepository } from '@dts/persistence';
import { APP_CONFIG, type AppConfig } from '@dts/platform';
import type { AuthPrincipal } from '../../common/auth/auth-principal';
import { CurrentAccount } from '../../common/auth/auth.decorators';
import { ApiEnvelope, ApiErrors } from '../../common/openapi/api-envelope.decorator';
import { AccountOverviewResponse } from './overview.response';

@ApiTags('account')
@Controller('user/overview')
export class OverviewController {
  constructor(
    private readonly devices: DeviceListRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get()
  @ApiOperation({
    summary:
      'The account at a glance: devices online, offline and silent, uplinks in 24 h, images, pending commands, active alerts, integration health (one query)',
  })
  @ApiEnvelope(AccountOverviewResponse)
  @ApiErrors('AUTH_REQUIRED')
  async get(@CurrentAccount() me: AuthPrincipal): Promise<AccountOverviewWire> {
    const threshold = this.config.deviceOnlineSeconds;
    const row = await this.devices.overview(me.accountId, threshold);
    return {
      devices: { total: row.total, online: row.online, offline: row.total - row.online, never_seen: row.never_seen, silent: row.silent },
      uplinks_24h: row.uplinks_24h,
      images: row.images,
      commands_pending: row.commands_pending,
      alerts_active: row.alerts_active,
      integrations: { total: row.integrations, failing: row.integrations_failing, disabled: row.integrations_disabled },
      online_threshold_s: threshold,
    };
  }
}
