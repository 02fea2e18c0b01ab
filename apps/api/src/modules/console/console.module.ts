import { Module } from '@nestjs/common';
import { ConsoleConfigController } from './console-config.controller';

@Module({ controllers: [ConsoleConfigController] })
export class ConsoleModule {}
