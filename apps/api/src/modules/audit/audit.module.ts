import { Module } from '@nestjs/common';
import { AuditLog } from '../../common/audit/audit-log';
import { AuditController } from './audit.controller';
import { AuditService } from './audit.service';

/** The audit log: its writer (AuditLog, fed by common/audit/audit.middleware.ts) and its read, GET /admin/audit. */
@Module({ controllers: [AuditController], providers: [AuditService, AuditLog], exports: [AuditLog, AuditService] })
export class AuditModule {}
