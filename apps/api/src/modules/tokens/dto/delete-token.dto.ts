import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsInt, Max, Min } from 'class-validator';

export class DeleteTokenDto {
  @ApiProperty({ oneOf: [{ type: 'integer' }, { type: 'string', pattern: '^\\d+$' }], example: 7, description: 'Integer, or its digits as a string.' })
  @Transform(({ value }) => (typeof value === 'string' && /^\d{1,10}$/.test(value) ? Number(value) : value))
  @IsInt({ message: 'uid must be an integer' })
  @Min(1)
  @Max(2_147_483_647)
  uid!: number;
}
