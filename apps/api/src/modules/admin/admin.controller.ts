import { Body, Controller, Get, Param, Patch, Query } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { AdminOnly } from '../../common/auth/auth.decorators';
import { IntParamPipe } from '../../common/http/int-param.pipe';
import { ApiEnvelope, ApiErrors } from '../../common/openapi/api-envelope.decorator';
import { AdminService } from './admin.service';
import { AdminAccountResponse, AdminAccountsQueryDto, AdminAccountUpdateDto } from './dto/admin-accounts.dto';
import { AdminInfoResponse } from './dto/admin-info.responses';

@ApiTags('admin')
@Controller('admin')
@AdminOnly()
export class AdminController {
  constructor(private readonly admin: AdminService) {}

  @Get('info')
  @ApiOperation({ summary: 'Version, uptime, totals, queue depths, database and cache' })
  @ApiEnvelope(AdminInfoResponse)
  @ApiErrors('AUTH_REQUIRED', 'ADMIN_ONLY')
  info() {
    return this.admin.info();
  }

  @Get('accounts')
  @ApiOperation({
    summary: 'Every account with the devices it owns, its expiration, device limit and retention, by username, in pages',
    description: 'At most `limit` (default 100); `meta: {total, next_cursor}` — pass `next_cursor` as `cursor` with the same `q` for the next page.',
  })
  @ApiEnvelope([AdminAccountResponse], {
    meta: { type: 'object', properties: { total: { type: 'integer' }, next_cursor: { type: 'string', nullable: true } } },
  })
  @ApiErrors('VALIDATION_FAILED', 'AUTH_REQUIRED', 'ADMIN_ONLY')
  accounts(@Query() query: AdminAccountsQueryDto) {
    return this.admin.accounts(query);
  }

  @Patch('accounts/:id')
  @ApiOperation({ summary: 'Set an account’s expiration, device limit and/or retention of raw uplinks (null: the platform default)' })
  @ApiParam({ name: 'id', description: 'The account id' })
  @ApiEnvelope(AdminAccountResponse)
  @ApiErrors('VALIDATION_FAILED', 'MALFORMED_JSON', 'AUTH_REQUIRED', 'ADMIN_ONLY', 'NOT_FOUND')
  updateAccount(@Param('id', IntParamPipe) id: number, @Body() dto: AdminAccountUpdateDto) {
    return this.admin.updateAccount(id, dto);
  }
}
