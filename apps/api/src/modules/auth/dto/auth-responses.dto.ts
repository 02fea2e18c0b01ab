import { ApiProperty } from '@nestjs/swagger';
import type { AuthStateWire, CredentialCheckWire, EchoWire, RegisterResultWire, AccountDeletedWire } from '@dts/domain';

export class RegisterResultResponse implements RegisterResultWire {
  @ApiProperty({ example: 42 }) id!: number;
}

export class AuthStateResponse implements AuthStateWire {
  @ApiProperty() authenticated!: boolean;
}

export class CredentialCheckResponse implements CredentialCheckWire {
  @ApiProperty() valid!: boolean;
}

export class EchoResponse implements EchoWire {
  @ApiProperty({ example: 'GET' }) method!: string;
  @ApiProperty({ example: '/auth/echo' }) path!: string;
  @ApiProperty({ type: 'object', additionalProperties: true }) query!: Record<string, unknown>;
  @ApiProperty({ type: String, nullable: true }) ip!: string | null;
  @ApiProperty({ type: String, nullable: true }) user_agent!: string | null;
  @ApiProperty() authenticated!: boolean;
}

export class AccountDeletedResponse implements AccountDeletedWire {
  @ApiProperty({ example: 42 }) id!: number;
  @ApiProperty({ enum: [true] }) deleted!: true;
}
