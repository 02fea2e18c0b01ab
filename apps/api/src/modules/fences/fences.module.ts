import { Module } from '@nestjs/common';
import { FencesController } from './fences.controller';
import { FencesService } from './fences.service';

@Module({ controllers: [FencesController], providers: [FencesService], exports: [FencesService] })
export class FencesModule {}
