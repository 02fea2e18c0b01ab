import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { ReadinessService } from './readiness.service';

@Module({
  imports: [TerminusModule.forRoot({ logger: false, errorLogStyle: 'json' })],
  providers: [ReadinessService],
  exports: [ReadinessService],
})
export class HealthModule {}
