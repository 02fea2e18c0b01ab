import { Module } from '@nestjs/common';
import { CommandsModule } from '../commands/commands.module';
import { IngestController } from './ingest.controller';
import { IngestService } from './ingest.service';

@Module({ imports: [CommandsModule], controllers: [IngestController], providers: [IngestService], exports: [IngestService] })
export class IngestModule {}
