import { API_VERSION, readBuildInfo } from '@dts/platform';
import { Controller, Get } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type RouteWire, toUnix, type VersionWire } from '@dts/domain';
import { Public } from '../../common/auth/auth.decorators';
import { RouteCatalog } from '../../common/http/route-catalog.service';
import { ApiEnvelope } from '../../common/openapi/api-envelope.decorator';
import { RouteResponse, VersionResponse } from './dto/system.responses';

@ApiTags('system')
@Controller()
export class SystemController {
  private readonly version: VersionWire;

  constructor(private readonly catalog: RouteCatalog) {
    const build = readBuildInfo();
    this.version = { version: build.version, commit: build.commit, api_version: API_VERSION, started_unix: toUnix(new Date()) };
  }

  @Get('version')
  @Public()
  @ApiOperation({ summary: 'Service and interface version' })
  @ApiEnvelope(VersionResponse)
  getVersion(): VersionWire {
    return this.version;
  }

  @Get('routes')
  @Public()
  @ApiOperation({ summary: 'Every route with the credentials it needs, generated from the router' })
  @ApiEnvelope([RouteResponse])
  routes(): RouteWire[] {
    return this.catalog.routes();
  }
}
