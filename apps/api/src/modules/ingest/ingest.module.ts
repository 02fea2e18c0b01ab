import { Module } from '@nestjs/common';
import { DeviceEventsService } from './device-events.service';
import { DownlinkEventsService } from './downlink-events.service';
import { IngestController } from './ingest.controller';
import { IngestService } from './ingest.service';

@Module({ controllers: [IngestController], providers: [IngestService, DownlinkEventsService, DeviceEventsService], exports: [IngestService] })
export class IngestModule {}
