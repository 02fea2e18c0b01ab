import { ApiProperty } from '@nestjs/swagger';
import { ROUTE_AUTH_LEVELS, type RouteAuthLevel, type RouteWire, type VersionWire, ORG_ROLES, type OrgRole, KEY_RIGHTS, type KeyRight } from '@dts/domain';

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

  @ApiProperty({
    enum: ORG_ROLES,
    nullable: true,
    description: 'The least role a member needs when the request acts in an organisation (docs/api.md §20); null for a route that does not act in an account.',
  })
  role!: OrgRole | null;

  @ApiProperty({
    description: 'The route acts on the person calling (profile, sessions, memberships), in no organisation; an organisation’s key may not call it.',
  })
  personal!: boolean;

  @ApiProperty({
    enum: KEY_RIGHTS,
    nullable: true,
    description: 'The right an API key with a list of rights needs (docs/api.md §20); null: only a key without a list, or a session.',
  })
  right!: KeyRight | null;
}
