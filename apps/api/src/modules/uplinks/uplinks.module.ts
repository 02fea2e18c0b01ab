import { Module } from '@nestjs/common';
import { DevicesModule } from '../devices/devices.module';
import { IngestModule } from '../ingest/ingest.module';
import { DataCacheService } from './data-cache.service';
import { UplinksController } from './uplinks.controller';
import { UplinksService } from './uplinks.service';

@Module({ imports: [DevicesModule, IngestModule], controllers: [UplinksController], providers: [UplinksService, DataCacheService], exports: [DataCacheService] })
export class UplinksModule {}
