import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsInt, IsOptional, Matches, Max, Min } from 'class-validator';
import { toIntFromQuery } from './query-values';

/** A list newest first, in keyset pages: `limit` items older than `before` (the last id of the previous page). */
export class NewestFirstPageDto {
  @ApiPropertyOptional({ minimum: 1, maximum: 1000, default: 100 })
  @IsOptional()
  @Transform(toIntFromQuery)
  @IsInt({ message: 'limit must be an integer' })
  @Min(1)
  @Max(1000)
  limit?: number;

  @ApiPropertyOptional({ description: 'Items older than this id (the last id of the previous page).' })
  @IsOptional()
  @Matches(/^\d{1,18}$/, { message: 'before must be the id of the previous page’s last item' })
  before?: string;
}
