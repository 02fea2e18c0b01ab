import { applyDecorators } from '@nestjs/common';
import { ApiExtraModels, ApiResponse } from '@nestjs/swagger';
import { RAW_HISTORY_FROM_HEADER, RETENTION_DAYS_HEADER, RETENTION_UNLIMITED } from '@dts/domain';
import { EXPORT_MEDIA_TYPES } from '../http/export-format';
import { type EnvelopeData, envelopeModels, envelopeSchema } from './api-envelope.decorator';

/**
 * The 200 of a history read in its three forms (`format=` or Accept): the envelope, CSV and NDJSON.
 * `csv` describes the columns, which differ by route.
 */
export function ApiExportResponse(data: EnvelopeData, options: { meta?: Record<string, unknown>; csv: string }) {
  return applyDecorators(
    ApiExtraModels(...envelopeModels(data)),
    ApiResponse({
      status: 200,
      description:
        'Success. Chosen by `format` (wins) or the Accept header; JSON by default. CSV and NDJSON are downloads (Content-Disposition: attachment) of the same rows, streamed alike.',
      content: {
        [EXPORT_MEDIA_TYPES.json]: { schema: envelopeSchema(data, options) },
        [EXPORT_MEDIA_TYPES.csv]: {
          schema: {
            type: 'string',
            description: `RFC 4180: a header line, CRLF line ends, quotes around cells with \`"\`, \`,\` or line breaks. ${options.csv} Objects and arrays are JSON text; null is an empty cell; text starting with = + - @, tab or CR gets a leading \`'\` so that spreadsheets do not run it as a formula (numbers are left alone).`,
          },
        },
        [EXPORT_MEDIA_TYPES.ndjson]: {
          schema: { type: 'string', description: 'One JSON object per line (LF), each exactly an item of `data` in the JSON form; no envelope.' },
        },
      },
      headers: {
        'Content-Disposition': { description: 'CSV and NDJSON only: `attachment; filename="<EUI>-<table|data>.<csv|ndjson>"`.', schema: { type: 'string' } },
        [RETENTION_DAYS_HEADER]: {
          description: `Every format: the device’s retention of raw uplinks in force, in days (its own where shorter, else its account’s or the platform default), or \`${RETENTION_UNLIMITED}\` when they are kept forever.`,
          schema: { type: 'string', pattern: `^([1-9][0-9]*|${RETENTION_UNLIMITED})$`, example: '30' },
        },
        [RAW_HISTORY_FROM_HEADER]: {
          description: `Every format, absent when raw uplinks are kept forever: the time (unix seconds, a UTC midnight) before which the device’s raw uplinks are removed; the worker removes them within minutes of that midnight. Series (rollups) still answer for the time before it.`,
          schema: { type: 'string', pattern: '^[0-9]+$', example: '1795219200' },
        },
      },
    }),
  );
}
