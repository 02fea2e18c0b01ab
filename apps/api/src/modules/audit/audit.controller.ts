import { Controller, Get, Query, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { AdminOnly } from '../../common/auth/auth.decorators';
import { envelopeOf } from '../../common/http/envelope';
import { sendStream } from '../../common/http/send-stream';
import { writeJson } from '../../common/http/write-json';
import { ApiErrors } from '../../common/openapi/api-envelope.decorator';
import { ApiAuditLogResponse } from './audit-openapi';
import { AuditService } from './audit.service';
import { AuditQueryDto } from './dto/audit.dto';

@ApiTags('admin')
@Controller('admin/audit')
@AdminOnly()
export class AuditController {
  constructor(private readonly audit: AuditService) {}

  @Get()
  @ApiOperation({
    summary: 'The audit log: every state-changing call and every sign-in, newest first, filtered; a page, or every match as CSV',
    description:
      'Append-only: no route changes or deletes a record; a read first writes what its instance still holds, so a caller finds its own last call there; whole months leave after AUDIT_RETENTION_DAYS (default 365). JSON: at most `limit` records (default 100), `meta.next_cursor` for the next page with the same filters. `format=csv`: every record that matches, streamed.',
  })
  @ApiAuditLogResponse()
  @ApiErrors('VALIDATION_FAILED', 'AUTH_REQUIRED', 'ADMIN_ONLY')
  async list(@Query() query: AuditQueryDto, @Res() res: Response) {
    if (query.format === 'csv') return sendStream(res, this.audit.csv(query));
    writeJson(res, 200, envelopeOf(await this.audit.page(query)));
  }
}
