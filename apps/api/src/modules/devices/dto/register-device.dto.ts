import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min, MinLength, ValidateIf } from 'class-validator';
import { DEVICE_FOLDER_MAX_LENGTH, DEVICE_LABEL_MAX_LENGTH, type DeviceRegisterRequest, type AnyJson } from '@dts/domain';
import { IsBoundedJson, isPresent } from '../../../common/http/validators';
// References are PostgreSQL integer columns: past INT4_MAX the query would fail (a 500), not refuse.
import { INT4_MAX } from '../../../common/http/query-values';
import { ANY_JSON_SCHEMA } from '../../../common/openapi/api-envelope.decorator';

export const TAGS_MAX_BYTES = 4096;
/** POST /user/device/{eui}: every member optional (docs/api.md §4). */
export class RegisterDeviceDto implements DeviceRegisterRequest {
  @ApiPropertyOptional({ maxLength: DEVICE_LABEL_MAX_LENGTH, description: 'Defaults to the EUI.' })
  @ValidateIf((o) => isPresent(o, 'label'))
  @IsString()
  @MinLength(1)
  @MaxLength(DEVICE_LABEL_MAX_LENGTH)
  label?: string;

  @ApiPropertyOptional({ type: 'integer', nullable: true, description: 'GET /datamodel/device/type' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(INT4_MAX)
  type_ref?: number | null;

  @ApiPropertyOptional({ type: 'integer', nullable: true, description: 'GET /datamodel/decoder; defaults to raw (1).' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(INT4_MAX)
  decoder_ref?: number | null;

  @ApiPropertyOptional({ type: 'integer', nullable: true, description: 'GET /datamodel/network; defaults to the simulated network (1).' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(INT4_MAX)
  network_ref?: number | null;

  @ApiPropertyOptional({ type: 'integer', nullable: true, description: 'GET /datamodel/icon' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(INT4_MAX)
  icon_ref?: number | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: DEVICE_FOLDER_MAX_LENGTH })
  @IsOptional()
  @IsString()
  @MaxLength(DEVICE_FOLDER_MAX_LENGTH)
  folder?: string | null;

  @ApiPropertyOptional({ ...ANY_JSON_SCHEMA, description: `Any JSON, at most ${TAGS_MAX_BYTES} bytes.` })
  @IsOptional()
  @IsBoundedJson(TAGS_MAX_BYTES)
  tags?: AnyJson;
}
