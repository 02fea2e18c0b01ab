import { Module } from '@nestjs/common';
import { DevicesModule } from '../devices/devices.module';
import { ImageLinksService } from './image-links.service';
import { ImagesController } from './images.controller';
import { ImagesService } from './images.service';

@Module({ imports: [DevicesModule], controllers: [ImagesController], providers: [ImagesService, ImageLinksService], exports: [ImagesService] })
export class ImagesModule {}
