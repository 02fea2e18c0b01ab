import { Module } from '@nestjs/common';
import { FencesController } from './fences.controller';
import { FencesService } from './fences.service';

@Module({ controllers: [FencesController], providers: [FencesService] })
export class FencesModule {}
