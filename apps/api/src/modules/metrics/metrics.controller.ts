import { Controller, Get, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import { MetricsService } from '@dts/platform';
import type { Response } from 'express';
import { MetricsAuth } from '../../common/auth/auth.decorators';
import { RawResponse } from '../../common/http/envelope.interceptor';
import { ApiErrors } from '../../common/openapi/api-envelope.decorator';

@ApiTags('system')
@Controller()
export class MetricsController {
  constructor(private readonly metrics: MetricsService) {}

  // Prometheus reads its own text format: like /docs, this answer is not an envelope (errors are).
  @Get('metrics')
  @MetricsAuth()
  @RawResponse()
  @ApiOperation({ summary: 'Prometheus metrics of this process (text exposition format, not an envelope)' })
  @ApiProduces('text/plain')
  @ApiOkResponse({ description: 'Prometheus text format 0.0.4', content: { 'text/plain': { schema: { type: 'string', example: '# TYPE dts_queue_depth gauge\ndts_queue_depth{queue="mail"} 0\n' } } } })
  @ApiErrors('AUTH_REQUIRED', 'INVALID_TOKEN')
  async scrape(@Res() res: Response): Promise<void> {
    const { contentType, body } = await this.metrics.scrape();
    res.setHeader('Content-Type', contentType);
    res.send(body);
  }
}
