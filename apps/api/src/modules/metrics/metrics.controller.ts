import { Controller, Get, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import { type MetricScope, MetricsService } from '@dts/platform';
import type { Response } from 'express';
import { MetricsAuth } from '../../common/auth/auth.decorators';
import { ApiErrors } from '../../common/openapi/api-envelope.decorator';

@ApiTags('system')
@Controller()
export class MetricsController {
  constructor(private readonly metrics: MetricsService) {}

  // Prometheus reads its own text format: like /docs, this answer is not an envelope (errors are).
  @Get('metrics')
  @MetricsAuth()
  @ApiOperation({
    summary: 'Prometheus metrics of this process (text exposition format, not an envelope)',
    description: 'Scrape on every instance (api and worker health port): HTTP timings, uplink counters, jobs, the database pool, `dts_build_info`, Node.js.',
  })
  @ApiProduces('text/plain')
  @ApiOkResponse({
    description: 'Prometheus text format 0.0.4',
    content: {
      'text/plain': {
        schema: { type: 'string', example: '# TYPE dts_build_info gauge\ndts_build_info{version="0.1.0",commit="abc",node_version="v26.10.0"} 1\n' },
      },
    },
  })
  @ApiErrors('AUTH_REQUIRED', 'INVALID_TOKEN')
  scrape(@Res() res: Response): Promise<void> {
    return this.send(res, 'process');
  }

  @Get('metrics/cluster')
  @MetricsAuth()
  @ApiOperation({
    summary: 'Prometheus gauges of the whole deployment: queue depths and commands by status',
    description: 'The same on every instance: scrape it once, through the load balancer, so that a sum does not count it once per instance.',
  })
  @ApiProduces('text/plain')
  @ApiOkResponse({
    description: 'Prometheus text format 0.0.4',
    content: { 'text/plain': { schema: { type: 'string', example: '# TYPE dts_queue_depth gauge\ndts_queue_depth{queue="mail"} 0\n' } } },
  })
  @ApiErrors('AUTH_REQUIRED', 'INVALID_TOKEN')
  scrapeCluster(@Res() res: Response): Promise<void> {
    return this.send(res, 'cluster');
  }

  private async send(res: Response, scope: MetricScope): Promise<void> {
    const { contentType, body } = await this.metrics.scrape(scope);
    res.setHeader('Content-Type', contentType);
    res.send(body);
  }
}
