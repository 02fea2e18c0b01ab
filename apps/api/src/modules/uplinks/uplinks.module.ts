import { Module } from '@nestjs/common';
import { DevicesModule } from '../devices/devices.module';
import { DataCacheService } from './data-cache.service';
import { UplinksController } from './uplinks.controller';
import { UplinksService } from './uplinks.service';

@Module({ imports: [DevicesModule], controllers: [UplinksController], providers: [UplinksService, DataCacheService], exports: [DataCacheService] })
export class UplinksModule {}
