import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, MaxLength, Validate, ValidatorConstraint, type ValidatorConstraintInterface } from 'class-validator';
import { parseSqlTimestamp, TOKEN_NAME_MAX_LENGTH, TOKEN_REQUEST_TYPES, type TokenRequestType, type CreateTokenRequest } from '@dts/domain';

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
}
