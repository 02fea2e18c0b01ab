import { ApiProperty } from '@nestjs/swagger';
import { IsString, MaxLength, MinLength } from 'class-validator';
import { PASSWORD_MAX_LENGTH, type LoginRequest } from '@dts/domain';

/** POST /auth/login and POST /auth/check. */
export class LoginDto implements LoginRequest {
  @ApiProperty({ description: 'Username or e-mail address.', example: 'alice' })
  @IsString()
  @MinLength(1)
  @MaxLength(254)
  username!: string;

  @ApiProperty()
  @IsString()
  @MinLength(1)
  @MaxLength(PASSWORD_MAX_LENGTH)
  password!: string;
}
