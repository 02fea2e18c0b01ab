import { Module } from '@nestjs/common';
import { NetworkClient } from '@dts/jobs';
import { DevicesModule } from '../devices/devices.module';
import { CommandsController } from './commands.controller';
import { CommandsService } from './commands.service';

@Module({
  imports: [DevicesModule],
  controllers: [CommandsController],
  providers: [CommandsService, NetworkClient],
  exports: [CommandsService],
})
export class CommandsModule {}
