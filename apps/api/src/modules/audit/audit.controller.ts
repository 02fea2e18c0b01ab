import { Controller, Get, Query, Res } from '@nestjs/common';
import { ApiExtraModels, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { AdminOnly } from '../../common/auth/auth.decorators';
import { envelopeOf, RawResponse } from '../../common/http/envelope.interceptor';
import { sendStream } from '../../common/http/send-stream';
import { writeJson } from '../../common/http/write-json';
import { ApiErrors, envelopeModels, envelopeSchema } from '../../common/openapi/api-envelope.decorator';
import { AUDIT_CSV_COLUMNS } from './audit.mapper';
import { AuditService } from './audit.service';
import { AuditEventResponse, AuditQueryDto } from './dto/audit.dto';

@ApiTags('admin')
@Controller('admin/audit')
@AdminOnly()
export class AuditController {
  constructor(private readonly audit: AuditService) {}

  @Get()
  @RawResponse()
  @ApiOperation({
    summary: 'The audit log: every state-changing call and every sign-in, newest first, filtered; a page, or every match as CSV',
    description:
      'Append-only: no route changes or deletes a record; whole months leave after AUDIT_RETENTION_DAYS (default 365). JSON: at most `limit` records (default 100), `meta.next_cursor` for the next page with the same filters. `format=csv`: every record that matches, streamed.',
  })
  @ApiExtraModels(...envelopeModels([AuditEventResponse]))
  @ApiResponse({
    status: 200,
    description: 'Success: a page in the envelope; with `format=csv`, every record that matches as a download (`audit.csv`), streamed.',
    content: {
      'application/json': {
        schema: envelopeSchema([AuditEventResponse], { meta: { type: 'object', properties: { next_cursor: { type: 'string', nullable: true } } } }),
      },
      'text/csv': {
        schema: {
          type: 'string',
          description: `RFC 4180, a header line and CRLF line ends. Columns: \`${AUDIT_CSV_COLUMNS.join(', ')}\` (\`target\` as JSON text); text starting with = + - @, tab or CR gets a leading \`'\` so that spreadsheets do not run it as a formula.`,
        },
      },
    },
  })
  @ApiErrors('VALIDATION_FAILED', 'AUTH_REQUIRED', 'ADMIN_ONLY')
  async list(@Query() query: AuditQueryDto, @Res() res: Response) {
    if (query.format === 'csv') return sendStream(res, this.audit.csv(query));
    writeJson(res, 200, envelopeOf(await this.audit.page(query)));
  }
}
