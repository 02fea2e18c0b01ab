import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { RestGatewayRequest, RestUplinkRequest } from '@dts/domain';

/*
 * The documented shape of POST /ingest/rest's items (docs/api.md §5). The route reads the body with
 * the REST network's parser in libs/domain (per item, refusing unknown members), not with a DTO:
 * these classes only describe it, and the OpenAPI check holds them to RestUplinkRequest.
 */

export class RestGatewayBody implements RestGatewayRequest {
  @ApiProperty({ example: 'eui-b827ebfffe6c279d' }) gateway_id!: string;
  @ApiPropertyOptional({ description: 'dBm.' }) rssi?: number;
  @ApiPropertyOptional({ description: 'dB.' }) snr?: number;
  @ApiPropertyOptional({ minimum: -90, maximum: 90 }) lat?: number;
  @ApiPropertyOptional({ minimum: -180, maximum: 180 }) lon?: number;
}

export class RestUplinkBody implements RestUplinkRequest {
  @ApiProperty({ example: '70B3D57ED0000A01', description: 'The device EUI (16 hex, any case, `-`/`:` separators allowed).' }) devEUI!: string;
  @ApiProperty({ minimum: 0, maximum: 255 }) port!: number;
  @ApiPropertyOptional({ description: 'The payload in Base64 (exactly one of payload_raw and payload_hex), at most 242 bytes.' }) payload_raw?: string;
  @ApiPropertyOptional({ example: '016700E5026864', description: 'The payload in hex (exactly one of payload_raw and payload_hex).' }) payload_hex?: string;
  @ApiPropertyOptional({ description: 'Reception time, unix seconds; the arrival time without one.' }) time_stamp_unix?: number;
  @ApiPropertyOptional({ description: 'A network by name: a global one or the account’s own.' }) network?: string;
  @ApiPropertyOptional({ minimum: 5, maximum: 12 }) SF?: number;
  @ApiPropertyOptional() RSSI?: number;
  @ApiPropertyOptional() SNR?: number;
  @ApiPropertyOptional() geoloc_lat?: number;
  @ApiPropertyOptional() geoloc_lon?: number;
  @ApiPropertyOptional() geoloc_alt?: number;
  @ApiPropertyOptional({ description: 'Frame counter: with time_stamp_unix, a redelivered item is stored once.' }) fcnt?: number;
  @ApiPropertyOptional({ type: [RestGatewayBody] }) gateways?: RestGatewayBody[];
}
