import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsEmail, IsOptional, IsString, Length, Matches, MaxLength, ValidateIf } from 'class-validator';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, type RestoreByEmailRequest, type RestoreByTokenRequest } from '@dts/domain';

/**
 * POST /auth/restore in its two steps: `{email}` asks for a reset token by mail;
 * `{token, password}` sets the new password.
 */
export class RestoreDto {
  @ApiPropertyOptional({ description: 'Step 1: the account e-mail address.' })
  @ValidateIf((o: RestoreDto) => o.token === undefined)
  @IsString({ message: 'email is required (or token and password)' })
  @MaxLength(254)
  @IsEmail({}, { message: 'email must be an e-mail address' })
  email?: string;

  @ApiPropertyOptional({ description: 'Step 2: the reset token from the e-mail.' })
  @IsOptional()
  @IsString()
  @Matches(/^[0-9a-f]{64}$/, { message: 'token must be the 64-character reset token' })
  token?: string;

  @ApiPropertyOptional({ description: 'Step 2: the new password.', minLength: PASSWORD_MIN_LENGTH, maxLength: PASSWORD_MAX_LENGTH })
  @ValidateIf((o: RestoreDto) => o.token !== undefined || o.password !== undefined)
  @IsString({ message: 'password is required with token' })
  @Length(PASSWORD_MIN_LENGTH, PASSWORD_MAX_LENGTH, { message: `password must be ${PASSWORD_MIN_LENGTH}-${PASSWORD_MAX_LENGTH} characters` })
  password?: string;
}

/** The documented forms of RestoreDto (OpenAPI `oneOf`). */
export class RestoreByEmailBody implements RestoreByEmailRequest {
  @ApiProperty({ description: 'Step 1: the account e-mail address; a reset token goes there by mail.' }) email!: string;
}

export class RestoreByTokenBody implements RestoreByTokenRequest {
  @ApiProperty({ description: 'Step 2: the 64-character reset token from the e-mail.', pattern: '^[0-9a-f]{64}$' }) token!: string;
  @ApiProperty({ description: 'Step 2: the new password.', minLength: PASSWORD_MIN_LENGTH, maxLength: PASSWORD_MAX_LENGTH }) password!: string;
}
