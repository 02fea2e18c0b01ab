import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  CACHE_ENTRIES_MAX_LIMIT,
  type CacheDeviceEntryWire,
  type CacheEntryWire,
  type CacheInvalidatedAllWire,
  type CacheInvalidatedWire,
  type CacheTotalsWire,
} from '@dts/domain';
import { Transform } from 'class-transformer';
import { IsBoolean, IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { toBoolFromQuery, toIntFromQuery } from '../../../common/http/query-values';

export class CacheTotalsResponse implements CacheTotalsWire {
  @ApiProperty({ description: 'Live devices.' }) devices!: number;
  @ApiProperty({ description: 'Fresh entries (built for their current version).' }) entries!: number;
  @ApiProperty({ description: 'Bytes of the fresh entries.' }) bytes!: number;
  @ApiProperty({ description: 'Entries built for an older version.' }) stale!: number;
}

export class CacheEntryResponse implements CacheEntryWire {
  @ApiProperty() devEUI!: string;
  @ApiProperty({ description: 'Grows on every invalidation (new uplinks, re-decode, admin).' }) version!: number;
  @ApiProperty({ description: 'Rows in the built entry.' }) rows!: number;
  @ApiProperty({ type: 'integer', nullable: true }) built_unix!: number | null;
  @ApiProperty({ description: 'True when the entry does not show the current version (or was never built).' }) stale!: boolean;
}

export class CacheInvalidatedResponse implements CacheInvalidatedWire {
  @ApiProperty() devEUI!: string;
  @ApiProperty() version!: number;
}

export class CacheInvalidatedAllResponse implements CacheInvalidatedAllWire {
  @ApiProperty({ description: 'Devices whose entries were invalidated and queued for rebuild.' }) devices!: number;
}

export class CacheDeviceEntryResponse extends CacheEntryResponse implements CacheDeviceEntryWire {
  @ApiProperty() label!: string;
  @ApiProperty({ description: 'The owner’s username.' }) owner!: string;
  @ApiProperty({ description: 'Bytes of the built entry.' }) bytes!: number;
}

/** GET /cache/entries: a page of devices by EUI. */
export class CacheEntriesQueryDto {
  @ApiPropertyOptional({ type: Boolean, description: 'Only entries not built for their current version (true), or only fresh ones (false).' })
  @IsOptional()
  @Transform(toBoolFromQuery)
  @IsBoolean({ message: 'stale must be true or false' })
  stale?: boolean;

  @ApiPropertyOptional({ minimum: 1, maximum: CACHE_ENTRIES_MAX_LIMIT, default: 100 })
  @IsOptional()
  @Transform(toIntFromQuery)
  @IsInt({ message: 'limit must be an integer' })
  @Min(1)
  @Max(CACHE_ENTRIES_MAX_LIMIT)
  limit?: number;

  @ApiPropertyOptional({ description: '`meta.next_cursor` of the previous page: entries after this EUI.' })
  @IsOptional()
  @IsString()
  @MaxLength(23)
  cursor?: string;
}
