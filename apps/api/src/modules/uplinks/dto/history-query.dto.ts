import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { EXPORT_FORMATS, type ExportFormat } from '../../../common/http/export-format';
import { toIntFromQuery, UnixSecondsQuery } from '../../../common/http/query-values';
import { UPLINK_ISSUES, type UplinkIssues } from '@dts/domain';

/** 9999-12-31T23:59:59Z: later times are outside PostgreSQL's timestamp range (the query would fail, a 500). */
/** Query of GET /user/device/table/{eui}: the whole history, oldest first, unless narrowed. */
export class HistoryQueryDto {
  @UnixSecondsQuery('From this time on (unix seconds, inclusive).')
  from?: number;

  @UnixSecondsQuery('Up to this time (unix seconds, inclusive).')
  to?: number;

  @ApiPropertyOptional({ minimum: 1, maximum: 100000, description: 'At most this many rows; absent: all.' })
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
