import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsOptional } from 'class-validator';
import type { DeviceImportFormat, DeviceImportProblemWire, DeviceImportRowWire, DeviceImportWire, AnyJson } from '@dts/domain';
import { toBoolFromQuery } from '../../../common/http/query-values';
import { ANY_JSON_SCHEMA } from '../../../common/openapi/api-envelope.decorator';

export class DeviceImportQueryDto {
  @ApiPropertyOptional({ type: Boolean, description: 'true: check every row and answer what would be registered; nothing is stored.' })
  @IsOptional()
  @Transform(toBoolFromQuery)
  @IsBoolean({ message: 'dry_run must be true or false' })
  dry_run?: boolean;
}

const int = { type: 'integer', nullable: true } as const;

export class DeviceImportRowResponse implements DeviceImportRowWire {
  @ApiProperty({ description: '1-based place of the row in the file (CSV: after the header line).' }) row!: number;
  @ApiProperty() devEUI!: string;
  @ApiProperty() label!: string;
  @ApiProperty(int) type_ref!: number | null;
  @ApiProperty(int) decoder_ref!: number | null;
  @ApiProperty(int) network_ref!: number | null;
  @ApiProperty(int) icon_ref!: number | null;
  @ApiProperty({ type: String, nullable: true }) folder!: string | null;
  @ApiProperty({ ...ANY_JSON_SCHEMA, description: 'Any JSON the row gave; null when none.' }) tags!: AnyJson;
}

export class DeviceImportProblemResponse implements DeviceImportProblemWire {
  @ApiProperty({ type: 'integer', nullable: true, description: '1-based row; null for the whole import.' }) row!: number | null;
  @ApiProperty({ example: 'rows[3].eui' }) field!: string;
  @ApiProperty({ enum: ['VALIDATION_FAILED', 'DEVICE_EXISTS', 'DEVICE_OWNED_ELSEWHERE', 'DEVICE_LIMIT_REACHED'] }) code!: DeviceImportProblemWire['code'];
  @ApiProperty() message!: string;
}

export class DeviceImportResponse implements DeviceImportWire {
  @ApiProperty() dry_run!: boolean;
  @ApiProperty({ enum: ['rows', 'csv', 'tts', 'tts-csv', 'chirpstack'] }) format!: DeviceImportFormat;
  @ApiProperty() rows!: number;
  @ApiProperty() created!: number;
  @ApiProperty() valid!: boolean;
  @ApiProperty({ type: [DeviceImportRowResponse] }) devices!: DeviceImportRowResponse[];
  @ApiProperty({ type: [DeviceImportProblemResponse] }) problems!: DeviceImportProblemResponse[];
  @ApiProperty() devices_owned!: number;
  @ApiProperty() max_devices!: number;
}
