import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsObject, IsString, Matches, MaxLength, MinLength, ValidateIf } from 'class-validator';
import {
  ACCOUNT_NETWORK_KINDS,
  type HttpJsonMappingWire,
  type NetworkAdapter,
  networkByKind,
  type NetworkConfigWire,
  type DeletedWire,
  type CreateNetworkRequest,
} from '@dts/domain';

/** What the registry says an account gives for a network of this kind (null for a kind it cannot add). */
const accountOf = (adapter: unknown) => (typeof adapter === 'string' ? networkByKind(adapter)?.account : null) ?? null;
/** Whether a member is required of this kind: an API's base_url and api_key, and the members it names. */
const takesApi = (o: CreateNetworkDto) => accountOf(o.adapter)?.via !== 'mapping';
const requires = (o: CreateNetworkDto, field: 'application_id' | 'webhook_id') => accountOf(o.adapter)?.requires.includes(field) === true;
const KINDS_TEXT = `${ACCOUNT_NETWORK_KINDS.slice(0, -1).join(', ')} or ${ACCOUNT_NETWORK_KINDS.at(-1)}`;

const PATH = 'A dot path (data.rx[0].rssi) or a JSON Pointer (/data/rx/0/rssi).';

/** Where an HTTP JSON sender keeps each member (docs/api.md §16). */
export class HttpJsonMappingResponse implements HttpJsonMappingWire {
  @ApiProperty({ description: PATH, example: 'end_device.eui' }) devEUI!: string;
  @ApiProperty({ description: PATH, example: 'fport' }) port!: string;
  @ApiProperty({ description: PATH, example: 'data' }) payload!: string;
  @ApiProperty({ enum: ['hex', 'base64'] }) payload_encoding!: 'hex' | 'base64';
  @ApiProperty({ type: String, nullable: true, description: `${PATH} Unix seconds or an RFC 3339 time.` }) time!: string | null;
  @ApiProperty({ type: String, nullable: true, description: PATH }) rssi!: string | null;
  @ApiProperty({ type: String, nullable: true, description: PATH }) snr!: string | null;
  @ApiProperty({ type: String, nullable: true, description: `${PATH} The sender's message id: a redelivery is stored once.` }) message_id!: string | null;
  @ApiProperty({ type: String, nullable: true, description: PATH }) fcnt!: string | null;
  @ApiProperty({ type: String, nullable: true, description: `${PATH} Where the array of items is, when the body is not the item or the array.` })
  items!: string | null;
}

/** The mapping as POST /user/network takes it: any member may be left out (its default applies). */
export class HttpJsonMappingBody implements Partial<HttpJsonMappingWire> {
  @ApiPropertyOptional({ description: PATH, example: 'end_device.eui' }) devEUI?: string;
  @ApiPropertyOptional({ description: PATH, example: 'fport' }) port?: string;
  @ApiPropertyOptional({ description: PATH, example: 'data' }) payload?: string;
  @ApiPropertyOptional({ enum: ['hex', 'base64'] }) payload_encoding?: 'hex' | 'base64';
  @ApiPropertyOptional({ type: String, nullable: true, description: `${PATH} Unix seconds or an RFC 3339 time.` }) time?: string | null;
  @ApiPropertyOptional({ type: String, nullable: true, description: PATH }) rssi?: string | null;
  @ApiPropertyOptional({ type: String, nullable: true, description: PATH }) snr?: string | null;
  @ApiPropertyOptional({ type: String, nullable: true, description: `${PATH} The sender's message id: a redelivery is stored once.` }) message_id?:
    string | null;
  @ApiPropertyOptional({ type: String, nullable: true, description: PATH }) fcnt?: string | null;
  @ApiPropertyOptional({ type: String, nullable: true, description: `${PATH} Where the array of items is, when the body is not the item or the array.` })
  items?: string | null;
}

export class CreateNetworkDto implements CreateNetworkRequest {
  @ApiProperty({ maxLength: 100, example: 'Our ChirpStack' })
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  name!: string;

  @ApiProperty({ enum: ACCOUNT_NETWORK_KINDS })
  @IsIn(ACCOUNT_NETWORK_KINDS, { message: `adapter must be ${KINDS_TEXT}` })
  adapter!: NetworkAdapter;

  @ApiPropertyOptional({
    example: 'https://chirpstack.example.org',
    description:
      'ChirpStack and The Things Stack (required): API base URL; loopback, link-local and private addresses are refused unless OUTBOUND_ALLOW_PRIVATE.',
  })
  @ValidateIf((o: CreateNetworkDto) => takesApi(o) || o.base_url !== undefined)
  @IsString()
  @MaxLength(500)
  base_url?: string;

  @ApiPropertyOptional({
    description:
      'ChirpStack and The Things Stack (required): API key (a ChirpStack API token, or a The Things Stack key with downlink rights). Kept encrypted; never shown again.',
  })
  @ValidateIf((o: CreateNetworkDto) => takesApi(o) || o.api_key !== undefined)
  @IsString()
  @MinLength(1)
  @MaxLength(4096)
  api_key?: string;

  @ApiPropertyOptional({ description: 'The Things Stack: application id (required for ttn).' })
  @ValidateIf((o: CreateNetworkDto) => requires(o, 'application_id') || o.application_id !== undefined)
  @IsString()
  @Matches(/^[a-z0-9](?:[-]?[a-z0-9]){1,35}$/, { message: 'application_id must be a The Things Stack id' })
  application_id?: string;

  @ApiPropertyOptional({ description: 'The Things Stack: webhook id (required for ttn).' })
  @ValidateIf((o: CreateNetworkDto) => requires(o, 'webhook_id') || o.webhook_id !== undefined)
  @IsString()
  @Matches(/^[a-z0-9](?:[-]?[a-z0-9]){1,35}$/, { message: 'webhook_id must be a The Things Stack id' })
  webhook_id?: string;

  @ApiPropertyOptional({
    type: () => HttpJsonMappingBody,
    description:
      'HTTP JSON only: where the sender keeps each member, as dot paths (data.rx[0].rssi) or JSON Pointers (/data/rx/0/rssi): ' +
      '{devEUI, port, payload, payload_encoding: hex | base64, time?, rssi?, snr?, message_id?, fcnt?, items?}. ' +
      'Left out: devEUI, port, payload, hex, time, rssi, snr, id, fcnt, and the body is the item or an array of them.',
  })
  @ValidateIf((o: CreateNetworkDto) => o.mapping !== undefined)
  @IsObject({ message: 'mapping must be an object' })
  mapping?: Partial<HttpJsonMappingWire>;
}

export class NetworkConfigResponse implements NetworkConfigWire {
  @ApiProperty() uid!: number;
  @ApiProperty() name!: string;
  @ApiProperty({ enum: ACCOUNT_NETWORK_KINDS }) adapter!: NetworkAdapter;
  @ApiProperty({ type: String, nullable: true }) base_url!: string | null;
  @ApiProperty({ type: String, nullable: true }) application_id!: string | null;
  @ApiProperty({ type: String, nullable: true }) webhook_id!: string | null;
  @ApiProperty({ type: () => HttpJsonMappingResponse, nullable: true, description: 'HTTP JSON: its mapping; its uplinks go to POST /ingest/http/{uid}.' })
  mapping!: HttpJsonMappingResponse | null;
  @ApiProperty() created_unix!: number;
}

export class NetworkDeletedResponse implements DeletedWire {
  @ApiProperty() uid!: number;
  @ApiProperty({ enum: [true] }) deleted!: true;
}
