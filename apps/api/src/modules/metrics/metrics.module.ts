import { Module } from '@nestjs/common';
import { CommandMetrics } from './command-metrics';
import { MetricsController } from './metrics.controller';

/** GET /metrics; the registry itself is the platform's MetricsModule, shared with in-process processors. */
@Module({ controllers: [MetricsController], providers: [CommandMetrics] })
export class MetricsApiModule {}
