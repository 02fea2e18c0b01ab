import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { AuthPrincipal } from '../../common/auth/auth-principal';
import { AdminOnly, CurrentAccount } from '../../common/auth/auth.decorators';
import { IntParamPipe } from '../../common/http/int-param.pipe';
import { ApiEnvelope, ApiErrors } from '../../common/openapi/api-envelope.decorator';
import { AdminService } from './admin.service';
import { AdminAccountResponse, AdminAccountsQueryDto, AdminAccountUpdateDto, AdminPasswordResetResponse } from './dto/admin-accounts.dto';
import { AdminAccountDeletedResponse, AdminAccountDeleteQueryDto } from '../auth/dto/account-deletion.dto';
import { MemberResponse } from '../organisations/dto/organisation.dto';
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
  @ApiOperation({
    summary: 'Set an account’s expiration, device limit, retention of raw uplinks (null: the platform default) and/or whether it is active',
    description:
      '`active: 0` disables the account: every session ends and its API tokens stop, on every instance, at once; signing in is refused until `active: 1`. An administrator cannot disable their own account.',
  })
  @ApiParam({ name: 'id', description: 'The account id' })
  @ApiEnvelope(AdminAccountResponse)
  @ApiErrors('VALIDATION_FAILED', 'MALFORMED_JSON', 'AUTH_REQUIRED', 'ADMIN_ONLY', 'NOT_FOUND')
  updateAccount(@CurrentAccount() me: AuthPrincipal, @Param('id', IntParamPipe) id: number, @Body() dto: AdminAccountUpdateDto) {
    return this.admin.updateAccount(me, id, dto);
  }

  @Get('accounts/:id/members')
  @ApiOperation({ summary: 'An organisation’s members and their roles (docs/api.md §20)' })
  @ApiParam({ name: 'id', description: 'The organisation’s account id' })
  @ApiEnvelope([MemberResponse])
  @ApiErrors('VALIDATION_FAILED', 'AUTH_REQUIRED', 'ADMIN_ONLY', 'NOT_FOUND')
  members(@Param('id', IntParamPipe) id: number) {
    return this.admin.members(id);
  }

  @Post('accounts/:id/password-reset')
  @HttpCode(202)
  @ApiOperation({
    summary: 'Mail the account a password reset link, as if it had asked (POST /auth/restore)',
    description: 'The link is valid for an hour and replaces any earlier one; setting the password with it ends every session and API token of the account.',
  })
  @ApiParam({ name: 'id', description: 'The account id' })
  @ApiEnvelope(AdminPasswordResetResponse, { status: 202 })
  @ApiErrors('AUTH_REQUIRED', 'ADMIN_ONLY', 'NOT_FOUND')
  passwordReset(@Param('id', IntParamPipe) id: number) {
    return this.admin.passwordReset(id);
  }

  @Delete('accounts/:id')
  @ApiOperation({
    summary: 'Delete an account and everything it owns; its devices deleted with it or handed to another account',
    description:
      'The account is disabled first (sessions and tokens stop everywhere). With `devices=hand_over&to=<username>` every device goes to that account, within its device limit or not at all (DEVICE_LIMIT_REACHED, nothing changed), as an accepted hand-over moves one: a codec or network of the deleted account falls back to the default one and the device’s history is decoded again. Codecs, networks, fences, rules, integrations, tokens and images of devices not handed over go with the account. Not the caller’s own account (DELETE /auth/register).',
  })
  @ApiParam({ name: 'id', description: 'The account id' })
  @ApiEnvelope(AdminAccountDeletedResponse)
  @ApiErrors('VALIDATION_FAILED', 'AUTH_REQUIRED', 'ADMIN_ONLY', 'NOT_FOUND', 'DEVICE_LIMIT_REACHED')
  deleteAccount(@CurrentAccount() me: AuthPrincipal, @Param('id', IntParamPipe) id: number, @Query() query: AdminAccountDeleteQueryDto) {
    return this.admin.deleteAccount(me, id, query);
  }
}
