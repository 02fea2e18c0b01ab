import { ApiProperty } from '@nestjs/swagger';
import type { CacheEntryWire, CacheInvalidatedAllWire, CacheInvalidatedWire, CacheTotalsWire } from '@dts/domain';

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
