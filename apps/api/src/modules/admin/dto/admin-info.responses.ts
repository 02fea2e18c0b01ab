import { ApiProperty } from '@nestjs/swagger';
import type { AdminInfoWire } from '@dts/domain';

export class PoolResponse {
  @ApiProperty({ description: 'Connections open in this process’s pool.' }) total!: number;
  @ApiProperty({ description: 'Of those, idle.' }) idle!: number;
  @ApiProperty({ description: 'Callers waiting for a connection.' }) waiting!: number;
}

export class DatabaseInfoResponse {
  @ApiProperty({ enum: ['embedded', 'postgresql'] }) kind!: 'embedded' | 'postgresql';
  @ApiProperty({ example: '17.2' }) server_version!: string;
  @ApiProperty({ description: 'pg_database_size of the service’s database.' }) size_bytes!: number;
  @ApiProperty({ type: PoolResponse }) pool!: PoolResponse;
}

export class CacheInfoResponse {
  @ApiProperty({ enum: ['postgresql', 'redis'], description: 'Where the data cache’s rows live.' }) backend!: 'postgresql' | 'redis';
  @ApiProperty({ description: 'Entries built for their device’s current version.' }) entries!: number;
  @ApiProperty({ description: 'Bytes of those entries.' }) bytes!: number;
  @ApiProperty({ description: 'Entries built for an older version (rebuilt on the next read).' }) stale!: number;
}

export class AdminInfoResponse implements AdminInfoWire {
  @ApiProperty({ example: '0.1.0' }) version!: string;
  @ApiProperty({ description: 'Seconds since this process started.' }) uptime_s!: number;
  @ApiProperty() accounts!: number;
  @ApiProperty({ description: 'Devices not deleted.' }) devices!: number;
  @ApiProperty({ description: 'Stored uplinks: counted, or estimated past a million (see uplinks_estimated).' }) uplinks!: number;
  @ApiProperty({ description: 'True when `uplinks` is the planner’s estimate rather than a count.' }) uplinks_estimated!: boolean;
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'integer' },
    example: { mail: 0, 'cache-rebuild': 2 },
    description: 'Jobs waiting, delayed or running per queue.',
  })
  queues!: Record<string, number>;
  @ApiProperty({ type: DatabaseInfoResponse }) database!: DatabaseInfoResponse;
  @ApiProperty({ type: CacheInfoResponse }) cache!: CacheInfoResponse;
}
