import { ApiProperty } from '@nestjs/swagger';
import { IsString, Matches } from 'class-validator';
import type { EmailVerifiedWire, EmailVerifyRequest } from '@dts/domain';

/** POST /auth/verify. */
export class EmailVerifyDto implements EmailVerifyRequest {
  @ApiProperty({ description: 'The 64-character token from the verification mail.', pattern: '^[0-9a-f]{64}$' })
  @IsString()
  @Matches(/^[0-9a-f]{64}$/, { message: 'token must be the 64-character verification token' })
  token!: string;
}

export class EmailVerifiedResponse implements EmailVerifiedWire {
  @ApiProperty({ example: 'alice@example.org', description: 'The address verified: the account’s address from now on.' }) email!: string;
  @ApiProperty({ enum: [true] }) email_verified!: true;
}
