import { Global, Module } from '@nestjs/common';
import { MetricsService } from './metrics.service';

/**
 * One registry per process: imported once by the api's root and once by the standalone worker's.
 * When the worker runs inside the api, its processors count into the same registry.
 */
@Global()
@Module({ providers: [MetricsService], exports: [MetricsService] })
export class MetricsModule {}
