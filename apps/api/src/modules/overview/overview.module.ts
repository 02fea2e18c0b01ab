import { Module } from '@nestjs/common';
import { ActivityController } from './activity.controller';
import { OverviewController } from './overview.controller';

@Module({ controllers: [OverviewController, ActivityController] })
export class OverviewModule {}
