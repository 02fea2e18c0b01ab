import { Module } from '@nestjs/common';
import { DeviceAccessService } from './device-access.service';
import { DeviceHandoversController } from './device-handovers.controller';
import { DeviceImportController } from './device-import.controller';
import { DeviceImportService } from './device-import.service';
import { DeviceHandoversService } from './device-handovers.service';
import { DeviceListService } from './device-list.service';
import { DeviceMetaController } from './device-meta.controller';
import { DeviceMetaService } from './device-meta.service';
import { DeviceSharesController } from './device-shares.controller';
import { DeviceSharesService } from './device-shares.service';
import { DevicesController } from './devices.controller';
import { DevicesService } from './devices.service';

@Module({
  // The meta, share, hand-over and import controllers first: their fixed segments must win over `:eui`.
  controllers: [DeviceMetaController, DeviceSharesController, DeviceHandoversController, DeviceImportController, DevicesController],
  providers: [DeviceAccessService, DevicesService, DeviceImportService, DeviceMetaService, DeviceSharesService, DeviceHandoversService, DeviceListService],
  exports: [DeviceAccessService, DevicesService, DeviceMetaService],
})
export class DevicesModule {}
