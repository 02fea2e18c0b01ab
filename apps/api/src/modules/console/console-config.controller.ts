import { Controller, Get, Inject } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { ConsoleConfigWire } from '@dts/domain';
import { APP_CONFIG, type AppConfig, readBuildInfo } from '@dts/platform';
import { ApiEnvelope, ApiErrors } from '../../common/openapi/api-envelope.decorator';
import { ConsoleConfigResponse } from './console-config.response';

@ApiTags('system')
@Controller('ui/config')
export class ConsoleConfigController {
  private readonly body: ConsoleConfigWire;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.body = {
      map: { tile_url: config.map.tileUrl, attribution: config.map.attribution, max_zoom: config.map.maxZoom },
      online_threshold_s: config.deviceOnlineSeconds,
      version: readBuildInfo().version,
    };
  }

  @Get()
  @ApiOperation({ summary: 'Settings of the web console: map tiles and the online threshold' })
  @ApiEnvelope(ConsoleConfigResponse)
  @ApiErrors('AUTH_REQUIRED')
  get(): ConsoleConfigWire {
    return this.body;
  }
}
