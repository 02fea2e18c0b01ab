import { Module } from '@nestjs/common';
import { DevicesModule } from '../devices/devices.module';
import { ImageLinksService } from './image-links.service';
import { ImagesController } from './images.controller';
import { ImageGalleryService } from './image-gallery.service';
import { ImagesService } from './images.service';

@Module({
  imports: [DevicesModule],
  controllers: [ImagesController],
  providers: [ImagesService, ImageGalleryService, ImageLinksService],
  exports: [ImagesService],
})
export class ImagesModule {}
