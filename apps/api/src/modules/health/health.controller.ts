import { Controller, Get, ServiceUnavailableException } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ReadinessService } from '@dts/platform';
import { Public } from '../../common/auth/auth.decorators';
import { ApiException } from '../../common/http/api.exception';
import { ApiEnvelope, ApiErrors } from '../../common/openapi/api-envelope.decorator';

@ApiTags('health')
@Controller('health')
export class HealthController {
  constructor(private readonly readiness: ReadinessService) {}

  @Get('live')
  @Public()
  @ApiOperation({ summary: 'Liveness: the process runs' })
  @ApiEnvelope('null')
  live() {
    return this.readiness.live();
  }

  @Get('ready')
  @Public()
  @ApiOperation({ summary: 'Readiness: database (migrated), Redis when configured, and queues answer' })
  @ApiEnvelope('null')
  @ApiErrors('UNAVAILABLE')
  async ready() {
    try {
      return await this.readiness.ready();
    } catch (error) {
      if (!(error instanceof ServiceUnavailableException)) throw error;
      const details = error.getResponse() as { error?: Record<string, { message?: string }> };
      const down = Object.entries(details.error ?? {}).map(([name, v]) => ({
        code: 'UNAVAILABLE' as const,
        message: `${name} is down${v.message ? `: ${v.message}` : ''}`,
        field: name,
      }));
      throw new ApiException(down.length ? down : [{ code: 'UNAVAILABLE', message: 'not ready' }], 5);
    }
  }
}
