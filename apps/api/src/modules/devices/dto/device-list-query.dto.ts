import { ApiPropertyOptional } from '@nestjs/swagger';
import { DEVICE_FOLDER_MAX_LENGTH, DEVICE_SORT_KEYS, type DeviceSort } from '@dts/domain';
import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { toIntFromQuery, toBoolFromQuery, INT4_MAX } from '../../../common/http/query-values';

export const DEVICE_SORTS: readonly DeviceSort[] = DEVICE_SORT_KEYS.flatMap((k) => [k, `-${k}` as const]);

/**
 * Optional members of GET /user/device/meta/all for a user interface. Without any of them the
 * route answers every device, ordered by EUI, with `meta: []`, as the spec's route does.
 */
export class DeviceListQueryDto {
  @ApiPropertyOptional({ minimum: 1, maximum: 1000, description: 'Devices per page; absent: all that match.' })
  @IsOptional()
  @Transform(toIntFromQuery)
  @IsInt({ message: 'limit must be an integer' })
  @Min(1)
  @Max(1000)
  limit?: number;

  @ApiPropertyOptional({ description: '`meta.next_cursor` of the previous page (with the same sort and filters).' })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  @Matches(/^[A-Za-z0-9_-]+$/, { message: 'cursor must be a next_cursor this route returned' })
  cursor?: string;

  @ApiPropertyOptional({ description: 'Text the EUI (separators ignored), label or folder contains, case-insensitive.' })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  q?: string;

  @ApiPropertyOptional({ description: 'Devices in exactly this folder.' })
  @IsOptional()
  @IsString()
  @MaxLength(DEVICE_FOLDER_MAX_LENGTH)
  folder?: string;

  @ApiPropertyOptional({ description: 'Devices of this device type (GET /datamodel/device/type).' })
  @IsOptional()
  @Transform(toIntFromQuery)
  @IsInt({ message: 'type_ref must be an integer' })
  @Min(1)
  @Max(INT4_MAX)
  type_ref?: number;

  @ApiPropertyOptional({ enum: DEVICE_SORTS, default: 'eui', description: 'Column to sort by, `-` first for descending; empty values last, ties by EUI.' })
  @IsOptional()
  @IsIn(DEVICE_SORTS, { message: `sort must be one of ${DEVICE_SORTS.join(', ')}` })
  sort?: DeviceSort;

  @ApiPropertyOptional({ type: Boolean, description: 'Only devices seen within DEVICE_ONLINE_SECONDS (true) or not (false).' })
  @IsOptional()
  @Transform(toBoolFromQuery)
  @IsBoolean({ message: 'online must be true or false' })
  online?: boolean;
}
