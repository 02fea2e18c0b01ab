import { Module } from '@nestjs/common';
import { DevicesModule } from '../devices/devices.module';
import { LiveFeedService } from './live-feed.service';
import { LiveController } from './live.controller';

@Module({ imports: [DevicesModule], controllers: [LiveController], providers: [LiveFeedService], exports: [LiveFeedService] })
export class LiveModule {}
