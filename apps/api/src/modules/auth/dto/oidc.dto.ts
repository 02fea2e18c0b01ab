import { ApiProperty } from '@nestjs/swagger';
import type { OidcProviderWire } from '@dts/domain';

export class OidcProviderResponse implements OidcProviderWire {
  @ApiProperty({ example: 'corp', description: 'In `/auth/oidc/{provider}/start`.' }) id!: string;
  @ApiProperty({ example: 'Corporate sign-in', description: 'What the sign-in page shows: “Sign in with …”.' }) name!: string;
}
