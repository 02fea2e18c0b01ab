import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { DataRowWire, RawUplinkWire, UplinkRecordWire, UplinkTestWire } from '@dts/domain';

const num = { type: Number, nullable: true } as const;
const int = { type: 'integer', nullable: true } as const;

export class RawUplinkResponse implements RawUplinkWire {
  @ApiProperty() uid!: number;
  @ApiProperty() time_stamp_unix!: number;
  @ApiProperty() devEUI!: string;
  @ApiProperty() port!: number;
  @ApiProperty(int) SF!: number | null;
  @ApiProperty(int) RSSI!: number | null;
  @ApiProperty(num) SNR!: number | null;
  @ApiProperty({ description: 'Base64' }) payload_raw!: string;
  @ApiProperty({ example: 'ChirpStack' }) network!: string;
  @ApiProperty(num) geoloc_lat!: number | null;
  @ApiProperty(num) geoloc_lon!: number | null;
  @ApiProperty(num) geoloc_alt!: number | null;
  @ApiProperty({ ...int, description: 'The API token that delivered it.' }) api_ref!: number | null;
  @ApiProperty({ ...int, description: 'Owner account.' }) user_ref!: number | null;
  @ApiProperty({ ...int, description: 'Device uid.' }) device_ref!: number | null;
}

export class UplinkRecordResponse implements UplinkRecordWire {
  @ApiProperty({ type: RawUplinkResponse }) uplink!: RawUplinkResponse;
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'What the decoder made of the payload.' }) payload_decoded!: Record<string, unknown>;
  @ApiProperty() payload_port!: number;
  @ApiProperty({ oneOf: [{ type: 'integer' }, { type: 'string' }] }) payload_length!: number;
  @ApiProperty() payload_hex!: string;
  @ApiProperty({ description: 'false when the decoder rejected the payload.' }) payload_valid!: boolean;
  @ApiProperty({
    type: [String],
    description: 'Why the decoder refused the payload (a codec’s `errors`, or the decoder’s reason), at most 20; [] when it did not.',
  })
  payload_errors!: string[];
  @ApiProperty({ type: [String], description: 'The decoder’s warnings (a codec’s `warnings`), at most 20; [] for none.' }) payload_warnings!: string[];
  @ApiProperty(int) ts_network_unix!: number | null;
  @ApiProperty(int) ts_net_unix!: number | null;
  @ApiProperty(int) ts_gps_unix!: number | null;
  @ApiProperty(int) ts_unix!: number | null;
  @ApiProperty(num) LAT!: number | null;
  @ApiProperty(num) LON!: number | null;
  @ApiProperty(num) ALT!: number | null;
  @ApiProperty(num) geoloc_LAT!: number | null;
  @ApiProperty(num) geoloc_LON!: number | null;
  @ApiProperty(num) geoloc_ALT!: number | null;
  @ApiProperty(num) temperature!: number | null;
  @ApiProperty(num) humidity!: number | null;
  @ApiProperty(num) battery_voltage!: number | null;
  @ApiProperty(num) battery_percent!: number | null;
  @ApiProperty({ type: String, nullable: true }) firmware_version!: string | null;
}

export class DataRowResponse implements DataRowWire {
  @ApiProperty() uid!: number;
  @ApiProperty() ts_unix!: number;
  @ApiProperty({ example: '2026-05-01T12:00:00+00:00' }) time_stamp!: string;
  @ApiProperty(num) humidity!: number | null;
  @ApiProperty(num) temperature!: number | null;
  @ApiProperty({ ...num, description: 'Battery voltage (V).' }) battery!: number | null;
  @ApiPropertyOptional({ description: 'Only on rows with a network position.' }) geoloc_LAT?: number;
  @ApiPropertyOptional() geoloc_LON?: number;
  @ApiPropertyOptional() geoloc_ALT?: number;
}

export class UplinkTestResponse implements UplinkTestWire {
  @ApiProperty({ type: UplinkRecordResponse }) uplink!: UplinkRecordResponse;
  @ApiProperty({ type: 'object', additionalProperties: true }) payload_decoded!: Record<string, unknown>;
  @ApiProperty({ example: 'Cayenne LPP' }) decoder!: string;
  @ApiProperty() valid!: boolean;
  @ApiProperty({ type: [String] }) errors!: string[];
  @ApiProperty({ type: [String] }) warnings!: string[];
}
