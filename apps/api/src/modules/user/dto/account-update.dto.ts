import { ApiProperty } from '@nestjs/swagger';
import { IsEmail, IsString, MaxLength, MinLength } from 'class-validator';
import { type AccountUpdateRequest, PASSWORD_MAX_LENGTH, type VerificationMailWire } from '@dts/domain';

/** PATCH /user. */
export class AccountUpdateDto implements AccountUpdateRequest {
  @ApiProperty({
    example: 'alice@example.com',
    description: 'The new address: it replaces the current one once verified (`email_pending` until then). The current address withdraws a pending change.',
  })
  @IsString()
  @MaxLength(254)
  @IsEmail({}, { message: 'email must be an e-mail address' })
  email!: string;

  @ApiProperty({ description: 'The account’s password, to confirm.' })
  @IsString()
  @MinLength(1)
  @MaxLength(PASSWORD_MAX_LENGTH)
  current_password!: string;
}

export class VerificationMailResponse implements VerificationMailWire {
  @ApiProperty({ description: 'Whether a verification mail was queued (false: nothing to verify).' }) sent!: boolean;
  @ApiProperty({ type: String, nullable: true, example: 'alice@example.org', description: 'The address it goes to; null when nothing is to be verified.' })
  to!: string | null;
}
