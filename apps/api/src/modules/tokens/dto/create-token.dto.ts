import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayUnique, IsArray, IsIn, IsOptional, IsString, MaxLength, Validate, ValidatorConstraint, type ValidatorConstraintInterface } from 'class-validator';
import {
  KEY_RIGHTS,
  type KeyRight,
  parseSqlTimestamp,
  TOKEN_NAME_MAX_LENGTH,
  TOKEN_REQUEST_TYPES,
  type TokenRequestType,
  type CreateTokenRequest,
} from '@dts/domain';

@ValidatorConstraint({ name: 'futureTimestamp' })
class FutureTimestamp implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    const date = typeof value === 'string' ? parseSqlTimestamp(value) : null;
    return date !== null && date.getTime() > Date.now();
  }

  defaultMessage(): string {
    return 'until must be a future time as YYYY-MM-DD HH:MM:SS (UTC), or null';
  }
}

export class CreateTokenDto implements CreateTokenRequest {
  @ApiProperty({ enum: TOKEN_REQUEST_TYPES, description: '`API` and `app` create an app token; `master` needs a session or a master token.' })
  @IsIn(TOKEN_REQUEST_TYPES, { message: `type must be one of ${TOKEN_REQUEST_TYPES.join(', ')}` })
  type!: TokenRequestType;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: TOKEN_NAME_MAX_LENGTH, example: 'gateway importer' })
  @IsOptional()
  @IsString()
  @MaxLength(TOKEN_NAME_MAX_LENGTH)
  name?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, example: '2027-01-01 00:00:00', description: 'Expiry (UTC); null or absent for none.' })
  @IsOptional()
  @Validate(FutureTimestamp)
  until?: string | null;

  @ApiPropertyOptional({
    type: 'array',
    items: { type: 'string', enum: [...KEY_RIGHTS] },
    nullable: true,
    example: ['read', 'commands'],
    description:
      'What the key may do (docs/api.md §20); absent or null: everything its type allows. A key with a list makes keys with at most its own rights (absent: the same list).',
  })
  @IsOptional()
  @IsArray({ message: 'rights must be a list of rights' })
  @ArrayUnique({ message: 'rights must not repeat a right' })
  @IsIn(KEY_RIGHTS, { each: true, message: `each right must be one of ${KEY_RIGHTS.join(', ')}` })
  rights?: KeyRight[] | null;
}
