import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsInt, Max, Min } from 'class-validator';
import { toIntFromQuery, INT4_MAX } from '../../../common/http/query-values';

export class DeleteTokenDto {
  @ApiProperty({ oneOf: [{ type: 'integer' }, { type: 'string', pattern: '^\\d+$' }], example: 7, description: 'Integer, or its digits as a string.' })
  @Transform(toIntFromQuery)
  @IsInt({ message: 'uid must be an integer' })
  @Min(1)
  @Max(INT4_MAX)
  uid!: number;
}
