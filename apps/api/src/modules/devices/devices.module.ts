import { Module } from '@nestjs/common';
import { DeviceAccessService } from './device-access.service';
import { DeviceMetaController } from './device-meta.controller';
import { DeviceMetaService } from './device-meta.service';
import { DeviceSharesController } from './device-shares.controller';
import { DeviceSharesService } from './device-shares.service';
import { DevicesController } from './devices.controller';
import { DevicesService } from './devices.service';

@Module({
  // The meta and share controllers first: their fixed segments must win over `:eui`.
  controllers: [DeviceMetaController, DeviceSharesController, DevicesController],
  providers: [DeviceAccessService, DevicesService, DeviceMetaService, DeviceSharesService],
  exports: [DeviceAccessService, DevicesService, DeviceMetaService],
})
export class DevicesModule {}
