import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsEmail, IsOptional, IsString, Length, Matches, MaxLength } from 'class-validator';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, USERNAME_PATTERN, type RegisterRequest } from '@dts/domain';

export class RegisterDto implements RegisterRequest {
  @ApiProperty({ example: 'alice', pattern: USERNAME_PATTERN.source, description: 'Unique case-insensitively.' })
  @IsString()
  @Matches(USERNAME_PATTERN, { message: 'username must be 3-64 characters of A-Z a-z 0-9 . _ -' })
  username!: string;

  @ApiProperty({ example: 'alice@example.org' })
  @IsString()
  @MaxLength(254)
  @IsEmail({}, { message: 'email must be an e-mail address' })
  email!: string;

  @ApiProperty({ minLength: PASSWORD_MIN_LENGTH, maxLength: PASSWORD_MAX_LENGTH })
  @IsString()
  @Length(PASSWORD_MIN_LENGTH, PASSWORD_MAX_LENGTH, { message: `password must be ${PASSWORD_MIN_LENGTH}-${PASSWORD_MAX_LENGTH} characters` })
  password!: string;

  @ApiPropertyOptional({ example: 'Alice Example', maxLength: 200 })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  fullname?: string;
}
