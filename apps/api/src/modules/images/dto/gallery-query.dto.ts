import { ApiPropertyOptional } from '@nestjs/swagger';
import { IMAGE_GALLERY_DEFAULT_LIMIT, IMAGE_GALLERY_MAX_LIMIT } from '@dts/domain';
import { Transform } from 'class-transformer';
import { IsInt, IsNumber, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { toIntFromQuery, UnixSecondsQuery } from '../../../common/http/query-values';

const toNumberFromQuery = ({ value }: { value: unknown }) =>
  typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value)) ? Number(value) : value;

/** GET /user/image: the gallery's filters and page. */
export class GalleryQueryDto {
  @ApiPropertyOptional({ example: '70B3D57ED0001234', description: 'One camera of the account only (16 hexadecimal digits, separators allowed).' })
  @IsOptional()
  @IsString()
  @MaxLength(23)
  eui?: string;

  @ApiPropertyOptional({ description: 'A detection (box or image-level prediction) whose label contains this text, case-insensitive.' })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  label?: string;

  @ApiPropertyOptional({ description: 'A detection whose taxonomy (class, order, family, genus or species) contains this text, case-insensitive.' })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  species?: string;

  @ApiPropertyOptional({
    minimum: 0,
    maximum: 1,
    description: 'A detection scored at least this; with label or species, the same detection must match them all.',
  })
  @IsOptional()
  @Transform(toNumberFromQuery)
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: 'min_score must be a number from 0 to 1' })
  @Min(0)
  @Max(1)
  min_score?: number;

  @UnixSecondsQuery('Photos taken at or after this time (unix seconds).')
  from?: number;

  @UnixSecondsQuery('Photos taken at or before this time (unix seconds).')
  to?: number;

  @ApiPropertyOptional({ minimum: 1, maximum: IMAGE_GALLERY_MAX_LIMIT, default: IMAGE_GALLERY_DEFAULT_LIMIT })
  @IsOptional()
  @Transform(toIntFromQuery)
  @IsInt({ message: 'limit must be an integer' })
  @Min(1)
  @Max(IMAGE_GALLERY_MAX_LIMIT)
  limit?: number;

  @ApiPropertyOptional({ description: '`meta.next_cursor` of the previous page (with the same filters).' })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  @Matches(/^[A-Za-z0-9_-]+$/, { message: 'cursor must be a next_cursor this route returned' })
  cursor?: string;
}
