import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { EXPORT_FORMATS, type ExportFormat } from '../../../common/http/export-format';

/** 9999-12-31T23:59:59Z: later times are outside PostgreSQL's timestamp range (the query would fail, a 500). */
const MAX_UNIX_SECONDS = 253_402_300_799;

const toInt = ({ value }: { value: unknown }) => (typeof value === 'string' && /^-?\d{1,15}$/.test(value) ? Number(value) : value);

/** Query of GET /user/device/table/{eui}: the whole history, oldest first, unless narrowed. */
export class HistoryQueryDto {
  @ApiPropertyOptional({ description: 'From this time on (unix seconds, inclusive).' })
  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'from must be unix seconds' })
  @Min(0)
  @Max(MAX_UNIX_SECONDS)
  from?: number;

  @ApiPropertyOptional({ description: 'Up to this time (unix seconds, inclusive).' })
  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'to must be unix seconds' })
  @Min(0)
  @Max(MAX_UNIX_SECONDS)
  to?: number;

  @ApiPropertyOptional({ minimum: 1, maximum: 100000, description: 'At most this many rows; absent: all.' })
  @IsOptional()
  @Transform(toInt)
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
    description: 'json: the envelope; csv: RFC 4180 with a header line; ndjson: one row object per line. Wins over the Accept header (application/json, text/csv, application/x-ndjson).',
  })
  @IsOptional()
  @IsIn(EXPORT_FORMATS, { message: 'format must be json, csv or ndjson' })
  format?: ExportFormat;
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
