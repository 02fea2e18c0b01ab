import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { EXPORT_FORMATS, type ExportFormat } from '../../../common/http/export-format';
import { toIntFromQuery, UnixSecondsQuery } from '../../../common/http/query-values';
import { UPLINK_ISSUES, type UplinkIssues } from '@dts/domain';

/** 9999-12-31T23:59:59Z: later times are outside PostgreSQL's timestamp range (the query would fail, a 500). */
/**
 * The largest `limit` of a small read: a read of at most this many rows is not an export and takes
 * none of the account's EXPORTS_PER_ACCOUNT slots (docs/api.md §5). Ten concurrent `limit=10` reads
 * of a dashboard were refused 429 while they held the four slots meant for long exports (issue 28).
 * At 1,000 rows a `data` read is about 150 KB, a `table` read about 1 MB with typical decoded
 * payloads; a read without `limit`, or a larger one, may be the whole history and counts.
 */
export const SMALL_READ_MAX_ROWS = 1_000;

/** Query of GET /user/device/table/{eui}: the whole history, oldest first, unless narrowed. */
export class HistoryQueryDto {
  @UnixSecondsQuery('From this time on (unix seconds, inclusive).')
  from?: number;

  @UnixSecondsQuery('Up to this time (unix seconds, inclusive).')
  to?: number;

  @ApiPropertyOptional({
    minimum: 1,
    maximum: 100000,
    description: `At most this many rows; absent: all. Up to ${SMALL_READ_MAX_ROWS} it is a small read, not counted against the account's open exports (EXPORTS_PER_ACCOUNT); absent or larger, it is an export — but for a whole data history served from the data cache with at most ${SMALL_READ_MAX_ROWS} rows, which is a small read too.`,
  })
  @IsOptional()
  @Transform(toIntFromQuery)
  @IsInt({ message: 'limit must be an integer' })
  @Min(1)
  @Max(100_000)
  limit?: number;

  @ApiPropertyOptional({ enum: ['asc', 'desc'], default: 'asc' })
  @IsOptional()
  @IsIn(['asc', 'desc'], { message: 'order must be asc or desc' })
  order?: 'asc' | 'desc';

  @ApiPropertyOptional({
    enum: EXPORT_FORMATS,
    default: 'json',
    description:
      'json: the envelope; csv: RFC 4180 with a header line; ndjson: one row object per line. Wins over the Accept header (application/json, text/csv, application/x-ndjson).',
  })
  @IsOptional()
  @IsIn(EXPORT_FORMATS, { message: 'format must be json, csv or ndjson' })
  format?: ExportFormat;

  @ApiPropertyOptional({ description: 'The organisation to act in, as X-Organisation, for a download link (which sends no headers; docs/api.md §20).' })
  @IsOptional()
  @IsString({ message: 'organisation must be the name or id of an organisation' })
  organisation?: string;
}

/** GET /user/device/table/{eui} also takes `issues`. */
export class TableQueryDto extends HistoryQueryDto {
  @ApiPropertyOptional({
    enum: UPLINK_ISSUES,
    description:
      'Only the uplinks whose decoding reported errors (`payload_errors` not empty), warnings (`payload_warnings` not empty), either (`any`), or neither (`none`).',
  })
  @IsOptional()
  @IsIn(UPLINK_ISSUES, { message: 'issues must be errors, warnings, any or none' })
  issues?: UplinkIssues;
}

/** GET /user/device/data/{eui} also takes `filter`. */
export class DataQueryDto extends HistoryQueryDto {
  @ApiPropertyOptional({ description: 'Comma-separated data type aliases (GET /datamodel/data/type/all), e.g. LAT,LON,ALT.', example: 'LAT,LON,ALT' })
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  @Matches(/^[A-Za-z0-9_]+(,[A-Za-z0-9_]+)*$/, { message: 'filter must be data type aliases separated by commas' })
  filter?: string;
}

/**
 * Whether a history read is an export (capped per account) or a small read (not): small when it
 * asks for few rows, or when the answer is known to hold few (`size`: a whole history served from
 * the data cache, whose rows are counted) — a device with a short history is not an export.
 */
export const historyStreamKind = (query: HistoryQueryDto, size?: number): 'export' | 'read' =>
  (query.limit !== undefined && query.limit <= SMALL_READ_MAX_ROWS) || (size !== undefined && size <= SMALL_READ_MAX_ROWS) ? 'read' : 'export';
