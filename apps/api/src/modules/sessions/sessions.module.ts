import { Module } from '@nestjs/common';
import { SessionsController } from './sessions.controller';
import { UserSessionsController } from './user-sessions.controller';
import { UserSessionsService } from './user-sessions.service';

@Module({ controllers: [SessionsController, UserSessionsController], providers: [UserSessionsService] })
export class SessionsModule {}
