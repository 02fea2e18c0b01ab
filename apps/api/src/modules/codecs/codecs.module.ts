import { Module } from '@nestjs/common';
import { CodecsController } from './codecs.controller';
import { CodecsService } from './codecs.service';

@Module({ controllers: [CodecsController], providers: [CodecsService] })
export class CodecsApiModule {}
