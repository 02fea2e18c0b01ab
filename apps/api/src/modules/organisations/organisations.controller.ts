import { Body, Controller, Delete, Get, Param, Patch, Post, Query, Res, UseInterceptors } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import type { AuthPrincipal } from '../../common/auth/auth-principal';
import { CurrentAccount, MasterOnly, PersonalRoute } from '../../common/auth/auth.decorators';
import { envelopeOf } from '../../common/http/envelope';
import { IntParamPipe } from '../../common/http/int-param.pipe';
import { sendStream } from '../../common/http/send-stream';
import { writeJson } from '../../common/http/write-json';
import { ApiEnvelope, ApiErrors } from '../../common/openapi/api-envelope.decorator';
import { AdminAccountDeletedResponse, AdminAccountDeleteQueryDto } from '../auth/dto/account-deletion.dto';
import { ApiAuditLogResponse } from '../audit/audit-openapi';
import { AuditService } from '../audit/audit.service';
import { AuditQueryDto } from '../audit/dto/audit.dto';
import {
  AddMemberDto,
  CreateOrganisationDto,
  InvitationResponse,
  InvitationWithdrawnResponse,
  InviteDto,
  MemberRemovedResponse,
  MemberResponse,
  OrganisationResponse,
  UpdateMemberDto,
  UpdateOrganisationDto,
} from './dto/organisation.dto';
import { ActedOnOrganisation } from '../../common/audit/acted-on.interceptor';
import { OrganisationsService } from './organisations.service';

/** Organisations, their members and invitations (docs/api.md §20): the person manages them, whatever organisation a request names. */
@ApiTags('organisations')
@Controller('org')
@PersonalRoute()
@UseInterceptors(ActedOnOrganisation)
export class OrganisationsController {
  constructor(
    private readonly organisations: OrganisationsService,
    private readonly audit: AuditService,
  ) {}

  @Get()
  @ApiOperation({ summary: 'The organisations the caller is a member of, with the caller’s role in each' })
  @ApiEnvelope([OrganisationResponse])
  @ApiErrors('AUTH_REQUIRED', 'FORBIDDEN')
  list(@CurrentAccount() me: AuthPrincipal) {
    return this.organisations.list(me);
  }

  @Post()
  @ApiOperation({
    summary: 'Create an organisation; the caller becomes its owner',
    description: 'Its name shares one namespace with usernames. It starts on the plan a new account gets (device limit, expiration).',
  })
  @ApiEnvelope(OrganisationResponse, { status: 201 })
  @ApiErrors('VALIDATION_FAILED', 'MALFORMED_JSON', 'AUTH_REQUIRED', 'FORBIDDEN', 'USERNAME_TAKEN', 'ORGANISATION_LIMIT_REACHED')
  create(@CurrentAccount() me: AuthPrincipal, @Body() dto: CreateOrganisationDto) {
    return this.organisations.create(me, dto);
  }

  @Get(':uid')
  @ApiOperation({ summary: 'One organisation the caller is a member of' })
  @ApiParam({ name: 'uid', description: 'The organisation id' })
  @ApiEnvelope(OrganisationResponse)
  @ApiErrors('VALIDATION_FAILED', 'AUTH_REQUIRED', 'FORBIDDEN', 'NOT_FOUND')
  get(@CurrentAccount() me: AuthPrincipal, @Param('uid', IntParamPipe) uid: number) {
    return this.organisations.get(me, uid);
  }

  @Patch(':uid')
  @ApiOperation({ summary: 'Rename an organisation or set its shown name (admins and owners)' })
  @ApiParam({ name: 'uid', description: 'The organisation id' })
  @ApiEnvelope(OrganisationResponse)
  @ApiErrors('VALIDATION_FAILED', 'MALFORMED_JSON', 'AUTH_REQUIRED', 'FORBIDDEN', 'ROLE_REQUIRED', 'NOT_FOUND', 'USERNAME_TAKEN')
  update(@CurrentAccount() me: AuthPrincipal, @Param('uid', IntParamPipe) uid: number, @Body() dto: UpdateOrganisationDto) {
    return this.organisations.update(me, uid, dto);
  }

  @Delete(':uid')
  // What a leaked app token must not do to a team: a session or a master token.
  @MasterOnly()
  @ApiOperation({
    summary: 'Delete an organisation and everything it owns (owners); its devices deleted or handed over',
    description:
      '`devices=hand_over&to=<name>` hands every device to the caller’s own account or to another organisation the caller is an operator of, within its device limit or not at all (DEVICE_LIMIT_REACHED, nothing changed).',
  })
  @ApiParam({ name: 'uid', description: 'The organisation id' })
  @ApiEnvelope(AdminAccountDeletedResponse)
  @ApiErrors('VALIDATION_FAILED', 'AUTH_REQUIRED', 'FORBIDDEN', 'ROLE_REQUIRED', 'NOT_FOUND', 'DEVICE_LIMIT_REACHED')
  delete(@CurrentAccount() me: AuthPrincipal, @Param('uid', IntParamPipe) uid: number, @Query() query: AdminAccountDeleteQueryDto) {
    return this.organisations.delete(me, uid, query);
  }

  @Get(':uid/member')
  @ApiOperation({ summary: 'The organisation’s members and their roles' })
  @ApiParam({ name: 'uid', description: 'The organisation id' })
  @ApiEnvelope([MemberResponse])
  @ApiErrors('VALIDATION_FAILED', 'AUTH_REQUIRED', 'FORBIDDEN', 'NOT_FOUND')
  members(@CurrentAccount() me: AuthPrincipal, @Param('uid', IntParamPipe) uid: number) {
    return this.organisations.members(me, uid);
  }

  @Post(':uid/member')
  // What a leaked app token must not do to a team: a session or a master token.
  @MasterOnly()
  @ApiOperation({
    summary: 'Invite an account by username (admins and owners): it becomes a member when it accepts',
    description: 'The invitation goes to the account’s verified address, as POST /org/{uid}/invitation. A role above the caller’s own is refused.',
  })
  @ApiParam({ name: 'uid', description: 'The organisation id' })
  @ApiEnvelope(InvitationResponse, { status: 201 })
  @ApiErrors('VALIDATION_FAILED', 'MALFORMED_JSON', 'AUTH_REQUIRED', 'FORBIDDEN', 'ROLE_REQUIRED', 'NOT_FOUND')
  addMember(@CurrentAccount() me: AuthPrincipal, @Param('uid', IntParamPipe) uid: number, @Body() dto: AddMemberDto) {
    return this.organisations.addMember(me, uid, dto);
  }

  @Patch(':uid/member/:account')
  // What a leaked app token must not do to a team: a session or a master token.
  @MasterOnly()
  @ApiOperation({
    summary: 'Change a member’s role (admins and owners, within their own role)',
    description: 'Making another member owner and then stepping down transfers ownership; the last owner’s role cannot be lowered (LAST_OWNER).',
  })
  @ApiParam({ name: 'uid', description: 'The organisation id' })
  @ApiParam({ name: 'account', description: 'The member’s account id' })
  @ApiEnvelope(MemberResponse)
  @ApiErrors('VALIDATION_FAILED', 'MALFORMED_JSON', 'AUTH_REQUIRED', 'FORBIDDEN', 'ROLE_REQUIRED', 'NOT_FOUND', 'LAST_OWNER')
  updateMember(
    @CurrentAccount() me: AuthPrincipal,
    @Param('uid', IntParamPipe) uid: number,
    @Param('account', IntParamPipe) account: number,
    @Body() dto: UpdateMemberDto,
  ) {
    return this.organisations.updateMember(me, uid, account, dto);
  }

  @Delete(':uid/member/:account')
  // What a leaked app token must not do to a team: a session or a master token.
  @MasterOnly()
  @ApiOperation({
    summary: 'Remove a member (admins and owners, within their own role), or leave (any member, with the own account id)',
    description:
      'The member’s keys of the organisation end with the membership, and its sessions stop acting in it, on every instance. The last owner cannot leave (LAST_OWNER).',
  })
  @ApiParam({ name: 'uid', description: 'The organisation id' })
  @ApiParam({ name: 'account', description: 'The member’s account id' })
  @ApiEnvelope(MemberRemovedResponse)
  @ApiErrors('VALIDATION_FAILED', 'AUTH_REQUIRED', 'FORBIDDEN', 'ROLE_REQUIRED', 'NOT_FOUND', 'LAST_OWNER')
  removeMember(@CurrentAccount() me: AuthPrincipal, @Param('uid', IntParamPipe) uid: number, @Param('account', IntParamPipe) account: number) {
    return this.organisations.removeMember(me, uid, account);
  }

  @Post(':uid/invitation')
  // What a leaked app token must not do to a team: a session or a master token.
  @MasterOnly()
  @ApiOperation({
    summary: 'Invite an e-mail address (admins and owners); whoever verifies it on an account may accept',
    description: `Mailed to the address (at most VERIFICATION_MAILS_PER_HOUR invitation mails to one address an hour, whoever invites; past that the invitation is kept and not mailed). Open for 14 days; inviting the address again renews it with the new role.`,
  })
  @ApiParam({ name: 'uid', description: 'The organisation id' })
  @ApiEnvelope(InvitationResponse, { status: 201 })
  @ApiErrors('VALIDATION_FAILED', 'MALFORMED_JSON', 'AUTH_REQUIRED', 'FORBIDDEN', 'ROLE_REQUIRED', 'NOT_FOUND')
  invite(@CurrentAccount() me: AuthPrincipal, @Param('uid', IntParamPipe) uid: number, @Body() dto: InviteDto) {
    return this.organisations.invite(me, uid, dto);
  }

  @Get(':uid/invitation')
  @ApiOperation({ summary: 'The organisation’s open invitations (admins and owners)' })
  @ApiParam({ name: 'uid', description: 'The organisation id' })
  @ApiEnvelope([InvitationResponse])
  @ApiErrors('VALIDATION_FAILED', 'AUTH_REQUIRED', 'FORBIDDEN', 'ROLE_REQUIRED', 'NOT_FOUND')
  invitations(@CurrentAccount() me: AuthPrincipal, @Param('uid', IntParamPipe) uid: number) {
    return this.organisations.invitationsOf(me, uid);
  }

  @Delete(':uid/invitation/:invitation')
  // What a leaked app token must not do to a team: a session or a master token.
  @MasterOnly()
  @ApiOperation({ summary: 'Withdraw an open invitation (admins and owners)' })
  @ApiParam({ name: 'uid', description: 'The organisation id' })
  @ApiParam({ name: 'invitation', description: 'The invitation uid' })
  @ApiEnvelope(InvitationWithdrawnResponse)
  @ApiErrors('VALIDATION_FAILED', 'AUTH_REQUIRED', 'FORBIDDEN', 'ROLE_REQUIRED', 'NOT_FOUND')
  withdraw(@CurrentAccount() me: AuthPrincipal, @Param('uid', IntParamPipe) uid: number, @Param('invitation', IntParamPipe) invitation: number) {
    return this.organisations.withdraw(me, uid, invitation);
  }

  @Get(':uid/audit')
  @ApiOperation({
    summary: 'The organisation’s audit log (admins and owners): every state-changing call made in it, newest first, filtered; a page, or every match as CSV',
    description: 'The same records, filters, paging and CSV export as GET /admin/audit, narrowed to calls that acted in this organisation.',
  })
  @ApiParam({ name: 'uid', description: 'The organisation id' })
  @ApiAuditLogResponse()
  @ApiErrors('VALIDATION_FAILED', 'AUTH_REQUIRED', 'FORBIDDEN', 'ROLE_REQUIRED', 'NOT_FOUND')
  async auditLog(@CurrentAccount() me: AuthPrincipal, @Param('uid', IntParamPipe) uid: number, @Query() query: AuditQueryDto, @Res() res: Response) {
    await this.organisations.requireRole(me, uid, 'admin');
    if (query.format === 'csv') return sendStream(res, this.audit.csv(query, uid));
    writeJson(res, 200, envelopeOf(await this.audit.page(query, uid)));
  }
}
