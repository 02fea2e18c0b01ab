import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsNumber, IsOptional, IsString, Max, MaxLength, Min, MinLength, ValidateIf } from 'class-validator';
import { DEVICE_FOLDER_MAX_LENGTH, DEVICE_LABEL_MAX_LENGTH, type DeviceMetaUpdateRequest, type AnyJson } from '@dts/domain';
import { IsBoundedJson, isPresent, RetentionDays } from '../../../common/http/validators';
import { INT4_MAX } from '../../../common/http/query-values';
import { TAGS_MAX_BYTES } from './register-device.dto';
import { ANY_JSON_SCHEMA } from '../../../common/openapi/api-envelope.decorator';

const finite = { allowNaN: false, allowInfinity: false };

/**
 * POST /user/device/meta/{eui}: exactly the writable members of docs/api.md §4, and the addition
 * `uplink_retention_days`. Anything else (uid, devEUI, username, ts_*, …) is refused by the
 * validation pipe. `null` clears a member, except label and owner_ref, which always have a value.
 */
export class DeviceMetaUpdateDto implements DeviceMetaUpdateRequest {
  @ApiPropertyOptional({ maxLength: DEVICE_LABEL_MAX_LENGTH })
  @ValidateIf((o) => isPresent(o, 'label'))
  @IsString()
  @MinLength(1)
  @MaxLength(DEVICE_LABEL_MAX_LENGTH)
  label?: string;

  @ApiPropertyOptional({ type: String, nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(DEVICE_FOLDER_MAX_LENGTH)
  folder?: string | null;

  @ApiPropertyOptional({ ...ANY_JSON_SCHEMA, description: `Any JSON, at most ${TAGS_MAX_BYTES} bytes; null clears them.` })
  @IsOptional()
  @IsBoundedJson(TAGS_MAX_BYTES)
  tags?: AnyJson;

  @ApiPropertyOptional({ type: Number, nullable: true, minimum: -90, maximum: 90 })
  @IsOptional()
  @IsNumber(finite)
  @Min(-90)
  @Max(90)
  installation_lat?: number | null;

  @ApiPropertyOptional({ type: Number, nullable: true, minimum: -180, maximum: 180 })
  @IsOptional()
  @IsNumber(finite)
  @Min(-180)
  @Max(180)
  installation_lon?: number | null;

  @ApiPropertyOptional({ type: Number, nullable: true, minimum: -90, maximum: 90 })
  @IsOptional()
  @IsNumber(finite)
  @Min(-90)
  @Max(90)
  lat?: number | null;

  @ApiPropertyOptional({ type: Number, nullable: true, minimum: -180, maximum: 180 })
  @IsOptional()
  @IsNumber(finite)
  @Min(-180)
  @Max(180)
  lon?: number | null;

  @ApiPropertyOptional({ type: Number, nullable: true, minimum: -1000, maximum: 100000, description: 'metres' })
  @IsOptional()
  @IsNumber(finite)
  @Min(-1000)
  @Max(100_000)
  alt?: number | null;

  @ApiPropertyOptional({ type: Number, nullable: true, minimum: 0, maximum: 100 })
  @IsOptional()
  @IsNumber(finite)
  @Min(0)
  @Max(100)
  battery_percent?: number | null;

  @ApiPropertyOptional({ type: Number, nullable: true, minimum: 0, maximum: 100, description: 'volts' })
  @IsOptional()
  @IsNumber(finite)
  @Min(0)
  @Max(100)
  battery_voltage?: number | null;

  @ApiPropertyOptional({ type: Number, nullable: true, minimum: -2730, maximum: 10000, description: 'tenths of a degree Celsius' })
  @IsOptional()
  @IsNumber(finite)
  @Min(-2730)
  @Max(10_000)
  temperature_dc?: number | null;

  @ApiPropertyOptional({ type: Number, nullable: true, minimum: 0, maximum: 100 })
  @IsOptional()
  @IsNumber(finite)
  @Min(0)
  @Max(100)
  signal_percent?: number | null;

  @ApiPropertyOptional({ type: Number, nullable: true, minimum: -200, maximum: 50, description: 'dBm' })
  @IsOptional()
  @IsNumber(finite)
  @Min(-200)
  @Max(50)
  signal_dbm?: number | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 64 })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  firmware_version?: string | null;

  @ApiPropertyOptional({ type: 'integer', nullable: true })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(INT4_MAX)
  type_ref?: number | null;

  @ApiPropertyOptional({ type: 'integer', nullable: true, description: 'Changing it re-decodes the stored uplinks in the worker.' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(INT4_MAX)
  decoder_ref?: number | null;

  @ApiPropertyOptional({ type: 'integer', nullable: true })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(INT4_MAX)
  network_ref?: number | null;

  @ApiPropertyOptional({ type: 'integer', nullable: true })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(INT4_MAX)
  icon_ref?: number | null;

  @ApiPropertyOptional({ type: 'integer', nullable: true, description: 'Owner only: the account the device is assigned to.' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(INT4_MAX)
  user_ref?: number | null;

  @ApiPropertyOptional({ type: 'integer', description: 'Owner only: hands the device over to another account.' })
  @ValidateIf((o) => isPresent(o, 'owner_ref'))
  @IsInt()
  @Min(1)
  @Max(INT4_MAX)
  owner_ref?: number;

  @RetentionDays(
    'Owner only (an addition to the spec’s members): days the device’s raw uplinks are kept, at most its account’s retention in force (`GET /user`); null: the account’s.',
  )
  uplink_retention_days?: number | null;
}
