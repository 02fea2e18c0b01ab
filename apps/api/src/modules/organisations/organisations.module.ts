import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module';
import { AuthModule } from '../auth/auth.module';
import { InvitationsController } from './invitations.controller';
import { OrganisationsController } from './organisations.controller';
import { OrganisationsService } from './organisations.service';

/** Organisations, members, invitations and an organisation's audit log (docs/api.md §20). */
@Module({ imports: [AuthModule, AuditModule], controllers: [OrganisationsController, InvitationsController], providers: [OrganisationsService] })
export class OrganisationsModule {}
