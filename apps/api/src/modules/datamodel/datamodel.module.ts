import { Module } from '@nestjs/common';
import { DatamodelController } from './datamodel.controller';
import { DatamodelService } from './datamodel.service';
import { DeviceDataTypesController } from './device-data-types.controller';

@Module({ controllers: [DatamodelController, DeviceDataTypesController], providers: [DatamodelService], exports: [DatamodelService] })
export class DatamodelModule {}
