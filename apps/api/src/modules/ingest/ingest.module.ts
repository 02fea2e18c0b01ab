import { Module } from '@nestjs/common';
import { DecodingService } from './decoding.service';
import { IngestController } from './ingest.controller';
import { IngestService } from './ingest.service';

@Module({ controllers: [IngestController], providers: [IngestService, DecodingService], exports: [DecodingService] })
export class IngestModule {}
