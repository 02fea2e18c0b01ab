import { Module } from '@nestjs/common';
import { HealthModule as PlatformHealthModule } from '@dts/platform';
import { HealthController } from './health.controller';

@Module({ imports: [PlatformHealthModule], controllers: [HealthController] })
export class HealthModule {}
