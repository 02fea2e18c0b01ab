import { Module } from '@nestjs/common';
import { DevicesModule } from '../devices/devices.module';
import { CommandEventsService } from './command-events.service';
import { CommandsController } from './commands.controller';
import { CommandsService } from './commands.service';

@Module({ imports: [DevicesModule], controllers: [CommandsController], providers: [CommandsService, CommandEventsService], exports: [CommandsService, CommandEventsService] })
export class CommandsModule {}
