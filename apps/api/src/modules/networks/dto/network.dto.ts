import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsString, Matches, MaxLength, MinLength, ValidateIf } from 'class-validator';
import type { NetworkAdapter, NetworkConfigWire } from '@dts/domain';

export class CreateNetworkDto {
  @ApiProperty({ maxLength: 100, example: 'Our ChirpStack' })
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  name!: string;

  @ApiProperty({ enum: ['chirpstack', 'ttn'] })
  @IsIn(['chirpstack', 'ttn'], { message: 'adapter must be chirpstack or ttn' })
  adapter!: 'chirpstack' | 'ttn';

  @ApiProperty({ example: 'https://chirpstack.example.org', description: 'API base URL; loopback, link-local and private addresses are refused unless OUTBOUND_ALLOW_PRIVATE.' })
  @IsString()
  @MaxLength(500)
  base_url!: string;

  @ApiProperty({ description: 'API key (ChirpStack API token, or The Things Stack API key with downlink rights). Kept encrypted; never shown again.' })
  @IsString()
  @MinLength(1)
  @MaxLength(4096)
  api_key!: string;

  @ApiPropertyOptional({ description: 'The Things Stack: application id (required for ttn).' })
  @ValidateIf((o: CreateNetworkDto) => o.adapter === 'ttn' || o.application_id !== undefined)
  @IsString()
  @Matches(/^[a-z0-9](?:[-]?[a-z0-9]){1,35}$/, { message: 'application_id must be a The Things Stack id' })
  application_id?: string;

  @ApiPropertyOptional({ description: 'The Things Stack: webhook id (required for ttn).' })
  @ValidateIf((o: CreateNetworkDto) => o.adapter === 'ttn' || o.webhook_id !== undefined)
  @IsString()
  @Matches(/^[a-z0-9](?:[-]?[a-z0-9]){1,35}$/, { message: 'webhook_id must be a The Things Stack id' })
  webhook_id?: string;
}

export class NetworkConfigResponse implements NetworkConfigWire {
  @ApiProperty() uid!: number;
  @ApiProperty() name!: string;
  @ApiProperty({ enum: ['chirpstack', 'ttn'] }) adapter!: NetworkAdapter;
  @ApiProperty() base_url!: string;
  @ApiProperty({ type: String, nullable: true }) application_id!: string | null;
  @ApiProperty({ type: String, nullable: true }) webhook_id!: string | null;
  @ApiProperty() created_unix!: number;
}

export class NetworkDeletedResponse {
  @ApiProperty() uid!: number;
  @ApiProperty({ enum: [true] }) deleted!: true;
}
