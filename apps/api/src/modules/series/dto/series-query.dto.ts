import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { SERIES_AGGREGATES, SERIES_INTERVALS } from '@dts/domain';
import { IsIn, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { CommaListQuery, UnixSecondsQuery } from '../../../common/http/query-values';

/** GET /user/device/series/{eui}: members as in `filter`, the range as in the history reads. */
export class SeriesQueryDto {
  @ApiProperty({ description: 'Comma-separated data type aliases (GET /datamodel/data/type/all), as `filter` takes them.', example: 'temperature,humidity' })
  @IsString()
  @MaxLength(1000)
  @Matches(/^[A-Za-z0-9_]+(,[A-Za-z0-9_]+)*$/, { message: 'members must be data type aliases separated by commas' })
  members!: string;

  @UnixSecondsQuery('From this time on (unix seconds, inclusive); default: `to` minus one day.')
  from?: number;

  @UnixSecondsQuery('Up to this time (unix seconds, inclusive); default: now.')
  to?: number;

  @ApiPropertyOptional({
    enum: [...SERIES_INTERVALS, 'auto'],
    default: 'auto',
    description: 'Bucket width; `auto`: the finest that gives at most 1,000 buckets. More than 2,000 buckets over the range is 400.',
  })
  @IsOptional()
  @IsIn([...SERIES_INTERVALS, 'auto'], { message: `interval must be one of ${[...SERIES_INTERVALS, 'auto'].join(', ')}` })
  interval?: string;

  @CommaListQuery(SERIES_AGGREGATES, {
    description: 'Comma-separated aggregates of min, avg, max, count.',
    default: 'min,avg,max,count',
    example: 'min,avg,max',
  })
  agg?: string;
}
