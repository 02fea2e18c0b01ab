import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, MaxLength, MinLength, ValidateIf } from 'class-validator';
import {
  type CreateDashboardRequest,
  DASHBOARD_MAX_WIDGETS,
  DASHBOARD_NAME_MAX_LENGTH,
  DASHBOARD_SHARE_ROLES,
  type DashboardShareRole,
  type DashboardWidget,
  type UpdateDashboardRequest,
} from '@dts/domain';
import { IsBoundedJson } from '../../../common/http/validators';
import { WIDGET_ITEMS } from './dashboard.responses';

/** The bytes a dashboard's widgets may take as JSON: 40 widgets of the largest kind fit many times over. */
const WIDGETS_MAX_BYTES = 64 * 1024;

const SHARE_MESSAGE = `shared_role must be one of ${DASHBOARD_SHARE_ROLES.join(', ')}, or null (its maker only)`;
const WIDGETS_DESCRIPTION =
  'The whole arrangement, replacing the one stored: each widget at (x, y) in a grid of 12 columns, w × h cells, none overlapping. ' +
  'The options per kind are checked strictly (docs/api.md §21); every device named must be one the account reaches (404 naming the field otherwise).';

/** POST /user/dashboard. The widgets' shapes are checked by the service (checkDashboardWidgets), member by member. */
export class CreateDashboardDto implements CreateDashboardRequest {
  @ApiProperty({ maxLength: DASHBOARD_NAME_MAX_LENGTH, example: 'Cold store' })
  @IsString()
  @MinLength(1)
  @MaxLength(DASHBOARD_NAME_MAX_LENGTH)
  name!: string;

  @ApiPropertyOptional({ type: 'array', items: WIDGET_ITEMS, maxItems: DASHBOARD_MAX_WIDGETS, default: [], description: WIDGETS_DESCRIPTION })
  // Bounded here; checked member by member by the service (checkDashboardWidgets), each problem named.
  @IsOptional()
  @IsBoundedJson(WIDGETS_MAX_BYTES)
  widgets?: DashboardWidget[];

  @ApiPropertyOptional({
    enum: DASHBOARD_SHARE_ROLES,
    nullable: true,
    default: null,
    description: 'Shared with the members of the organisation of at least this role; null: its maker only.',
  })
  @IsOptional()
  @IsIn(DASHBOARD_SHARE_ROLES, { message: SHARE_MESSAGE })
  shared_role?: DashboardShareRole | null;
}

/** PATCH /user/dashboard/{uid}: any of the members (at least one); `widgets` replaces the arrangement whole. */
export class UpdateDashboardDto implements UpdateDashboardRequest {
  @ApiPropertyOptional({ maxLength: DASHBOARD_NAME_MAX_LENGTH, example: 'Cold store' })
  // Absent is no change; null is no name (refused), not "absent".
  @ValidateIf((_, value) => value !== undefined)
  @IsString()
  @MinLength(1)
  @MaxLength(DASHBOARD_NAME_MAX_LENGTH)
  name?: string;

  @ApiPropertyOptional({ type: 'array', items: WIDGET_ITEMS, maxItems: DASHBOARD_MAX_WIDGETS, description: WIDGETS_DESCRIPTION })
  @ValidateIf((_, value) => value !== undefined)
  @IsBoundedJson(WIDGETS_MAX_BYTES)
  widgets?: DashboardWidget[];

  @ApiPropertyOptional({ enum: DASHBOARD_SHARE_ROLES, nullable: true, description: 'null: private again (its maker only).' })
  @IsOptional()
  @IsIn(DASHBOARD_SHARE_ROLES, { message: SHARE_MESSAGE })
  shared_role?: DashboardShareRole | null;
}
