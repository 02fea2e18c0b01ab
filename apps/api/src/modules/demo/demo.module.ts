import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { CommandsModule } from '../commands/commands.module';
import { DevicesModule } from '../devices/devices.module';
import { FencesModule } from '../fences/fences.module';
import { ImagesModule } from '../images/images.module';
import { IngestModule } from '../ingest/ingest.module';
import { TokensModule } from '../tokens/tokens.module';
import { DemoContentService } from './demo-content.service';
import { DemoLiveService } from './demo-live.service';
import { DemoSeeder } from './demo.seeder';

@Module({
  imports: [AuthModule, TokensModule, DevicesModule, IngestModule, ImagesModule, CommandsModule, FencesModule],
  providers: [DemoSeeder, DemoContentService, DemoLiveService],
})
export class DemoModule {}
