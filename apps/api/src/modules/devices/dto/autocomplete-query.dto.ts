import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';

/** The search text may come as q, query or term (clients use all three). */
export class AutocompleteQueryDto {
  @ApiPropertyOptional({ description: 'Text the EUI or label contains (case-insensitive). Empty or absent: the first 25 devices.' })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  q?: string;

  @ApiPropertyOptional({ description: 'Same as q.' })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  query?: string;

  @ApiPropertyOptional({ description: 'Same as q.' })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  term?: string;
}
