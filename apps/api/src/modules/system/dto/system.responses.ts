import { ApiProperty } from '@nestjs/swagger';
import type { RouteAuthLevel, RouteWire, VersionWire } from '@dts/domain';

export class VersionResponse implements VersionWire {
  @ApiProperty({ example: '0.1.0' }) version!: string;
  @ApiProperty({ type: String, nullable: true, example: 'a1b2c3d' }) commit!: string | null;
  @ApiProperty({ example: '1' }) api_version!: string;
  @ApiProperty({ example: 1780000000 }) started_unix!: number;
}

export class RouteResponse implements RouteWire {
  @ApiProperty({ example: 'GET' }) method!: string;
  @ApiProperty({ example: '/user/device/{eui}' }) path!: string;
  @ApiProperty({ enum: ['none', 'user', 'admin', 'ingest'] }) auth!: RouteAuthLevel;
}
