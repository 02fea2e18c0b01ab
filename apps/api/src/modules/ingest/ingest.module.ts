import { Module } from '@nestjs/common';
import { DeviceEventsService } from './device-events.service';
import { DownlinkEventsService } from './downlink-events.service';
import { IngestController } from './ingest.controller';
import { IngestService } from './ingest.service';
import { UplinkSimulationController } from './uplink-simulation.controller';
import { DevicesModule } from '../devices/devices.module';

@Module({
  imports: [DevicesModule],
  controllers: [IngestController, UplinkSimulationController],
  providers: [IngestService, DownlinkEventsService, DeviceEventsService],
  exports: [IngestService],
})
export class IngestModule {}
