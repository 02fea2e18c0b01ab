import { Body, Controller, Delete, Get, Param, Patch, Post } from '@nestjs/common';
import { ApiExtraModels, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AuthPrincipal } from '../../common/auth/auth-principal';
import { CurrentAccount, KeyRight } from '../../common/auth/auth.decorators';
import { IntParamPipe } from '../../common/http/int-param.pipe';
import { ApiEnvelope, ApiErrors } from '../../common/openapi/api-envelope.decorator';
import { DashboardsService } from './dashboards.service';
import { CreateDashboardDto, UpdateDashboardDto } from './dto/dashboard.dto';
import {
  AlertsWidgetOptionsSchema,
  ChartWidgetOptionsSchema,
  DashboardDeletedResponse,
  DashboardResponse,
  GaugeWidgetOptionsSchema,
  LatestWidgetOptionsSchema,
  MapWidgetOptionsSchema,
  WIDGET_MODELS,
} from './dto/dashboard.responses';

const WHO =
  'A private dashboard (shared_role null) is seen by its maker only; a shared one by the members of the organisation with at least that role. ' +
  'Another account’s dashboard, or one the caller does not see, is 404.';

@ApiTags('dashboards')
@ApiExtraModels(
  ...WIDGET_MODELS,
  ChartWidgetOptionsSchema,
  LatestWidgetOptionsSchema,
  MapWidgetOptionsSchema,
  AlertsWidgetOptionsSchema,
  GaugeWidgetOptionsSchema,
)
@Controller('user/dashboard')
@KeyRight('dashboards')
export class DashboardsController {
  constructor(private readonly dashboards: DashboardsService) {}

  @Get()
  @ApiOperation({ summary: 'The dashboards the caller sees in the account, by name', description: WHO })
  @ApiEnvelope([DashboardResponse])
  @ApiErrors('AUTH_REQUIRED')
  list(@CurrentAccount() me: AuthPrincipal) {
    return this.dashboards.list(me);
  }

  @Get(':uid')
  @ApiOperation({ summary: 'One dashboard with its widgets', description: WHO })
  @ApiEnvelope(DashboardResponse)
  @ApiErrors('VALIDATION_FAILED', 'AUTH_REQUIRED', 'NOT_FOUND')
  one(@CurrentAccount() me: AuthPrincipal, @Param('uid', IntParamPipe) uid: number) {
    return this.dashboards.one(me, uid);
  }

  @Post()
  @ApiOperation({ summary: 'Create a dashboard (the caller is its maker)', description: 'An account holds at most 200 dashboards (409 LIMIT_REACHED).' })
  @ApiEnvelope(DashboardResponse, { status: 201 })
  @ApiErrors('VALIDATION_FAILED', 'MALFORMED_JSON', 'AUTH_REQUIRED', 'NOT_FOUND', 'LIMIT_REACHED')
  create(@CurrentAccount() me: AuthPrincipal, @Body() dto: CreateDashboardDto) {
    return this.dashboards.create(me, dto);
  }

  @Patch(':uid')
  @ApiOperation({
    summary: 'Rename, rearrange or share a dashboard',
    description: 'Its maker, or an admin of the organisation for a shared one (ROLE_REQUIRED otherwise). `widgets` replaces the arrangement whole.',
  })
  @ApiEnvelope(DashboardResponse)
  @ApiErrors('VALIDATION_FAILED', 'MALFORMED_JSON', 'AUTH_REQUIRED', 'ROLE_REQUIRED', 'NOT_FOUND')
  update(@CurrentAccount() me: AuthPrincipal, @Param('uid', IntParamPipe) uid: number, @Body() dto: UpdateDashboardDto) {
    return this.dashboards.update(me, uid, dto);
  }

  @Delete(':uid')
  @ApiOperation({ summary: 'Delete a dashboard', description: 'Its maker, or an admin of the organisation for a shared one (ROLE_REQUIRED otherwise).' })
  @ApiEnvelope(DashboardDeletedResponse)
  @ApiErrors('VALIDATION_FAILED', 'AUTH_REQUIRED', 'ROLE_REQUIRED', 'NOT_FOUND')
  delete(@CurrentAccount() me: AuthPrincipal, @Param('uid', IntParamPipe) uid: number) {
    return this.dashboards.delete(me, uid);
  }
}
