import { Module } from '@nestjs/common';
import { DevicesModule } from '../devices/devices.module';
import { SeriesController } from './series.controller';
import { SeriesService } from './series.service';

@Module({ imports: [DevicesModule], controllers: [SeriesController], providers: [SeriesService] })
export class SeriesModule {}
