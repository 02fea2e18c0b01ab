import { applyDecorators } from '@nestjs/common';
import { ApiExtraModels, ApiResponse } from '@nestjs/swagger';
import { envelopeModels, envelopeSchema } from '../../common/openapi/api-envelope.decorator';
import { AUDIT_CSV_COLUMNS } from './audit.mapper';
import { AuditEventResponse } from './dto/audit.dto';

/** What a read of the audit log answers (GET /admin/audit, GET /org/{uid}/audit): a page in the envelope, or every match as CSV. */
export const ApiAuditLogResponse = () =>
  applyDecorators(
    ApiExtraModels(...envelopeModels([AuditEventResponse])),
    ApiResponse({
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
    }),
  );
