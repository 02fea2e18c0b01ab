import { ApiPropertyOptional } from '@nestjs/swagger';
import { IMAGE_LABELS_DEFAULT_LIMIT, IMAGE_LABELS_MAX_LIMIT } from '@dts/domain';
import { Transform } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { toIntFromQuery } from '../../../common/http/query-values';

/** GET /user/image/labels: how many labels, the most used first. */
export class ImageLabelsQueryDto {
  @ApiPropertyOptional({ minimum: 1, maximum: IMAGE_LABELS_MAX_LIMIT, default: IMAGE_LABELS_DEFAULT_LIMIT })
  @IsOptional()
  @Transform(toIntFromQuery)
  @IsInt({ message: 'limit must be an integer' })
  @Min(1)
  @Max(IMAGE_LABELS_MAX_LIMIT)
  limit?: number;
}
