import { ApiProperty } from '@nestjs/swagger';
import { ROUTE_AUTH_LEVELS, type RouteAuthLevel, type RouteWire, type VersionWire } from '@dts/domain';

export class VersionResponse implements VersionWire {
  @ApiProperty({ example: '0.1.0' }) version!: string;
  @ApiProperty({ type: String, nullable: true, example: 'a1b2c3d' }) commit!: string | null;
  @ApiProperty({ example: '1' }) api_version!: string;
  @ApiProperty({ example: 1780000000 }) started_unix!: number;
}

export class RouteResponse implements RouteWire {
  @ApiProperty({ example: 'GET' }) method!: string;
  @ApiProperty({ example: '/user/device/{eui}' }) path!: string;
  @ApiProperty({
    enum: ROUTE_AUTH_LEVELS,
    description: 'What a caller needs as the service is configured. `metrics`: the METRICS_TOKEN (a metrics route without one configured is `none`).',
  })
  auth!: RouteAuthLevel;
}
