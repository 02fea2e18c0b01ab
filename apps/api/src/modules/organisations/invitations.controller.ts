import { Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { AuthPrincipal } from '../../common/auth/auth-principal';
import { CurrentAccount, PersonalRoute } from '../../common/auth/auth.decorators';
import { IntParamPipe } from '../../common/http/int-param.pipe';
import { ApiEnvelope, ApiErrors } from '../../common/openapi/api-envelope.decorator';
import { InvitationAcceptedResponse, InvitationDeclinedResponse, InvitationResponse } from './dto/organisation.dto';
import { OrganisationsService } from './organisations.service';

/** Invitations to the caller (docs/api.md §20): those to their verified address. */
@ApiTags('organisations')
@Controller('user/invitation')
@PersonalRoute()
export class InvitationsController {
  constructor(private readonly organisations: OrganisationsService) {}

  @Get()
  @ApiOperation({ summary: 'Open invitations to the caller’s address (none while it is not verified)' })
  @ApiEnvelope([InvitationResponse])
  @ApiErrors('AUTH_REQUIRED', 'FORBIDDEN')
  list(@CurrentAccount() me: AuthPrincipal) {
    return this.organisations.invitationsFor(me);
  }

  @Post(':uid/accept')
  @HttpCode(200)
  @ApiOperation({ summary: 'Accept an invitation: the caller becomes a member with its role (a member already keeps theirs)' })
  @ApiParam({ name: 'uid', description: 'The invitation uid' })
  @ApiEnvelope(InvitationAcceptedResponse)
  @ApiErrors('VALIDATION_FAILED', 'AUTH_REQUIRED', 'FORBIDDEN', 'NOT_FOUND')
  accept(@CurrentAccount() me: AuthPrincipal, @Param('uid', IntParamPipe) uid: number) {
    return this.organisations.accept(me, uid);
  }

  @Post(':uid/decline')
  @HttpCode(200)
  @ApiOperation({ summary: 'Decline an invitation: it is gone' })
  @ApiParam({ name: 'uid', description: 'The invitation uid' })
  @ApiEnvelope(InvitationDeclinedResponse)
  @ApiErrors('VALIDATION_FAILED', 'AUTH_REQUIRED', 'FORBIDDEN', 'NOT_FOUND')
  decline(@CurrentAccount() me: AuthPrincipal, @Param('uid', IntParamPipe) uid: number) {
    return this.organisations.decline(me, uid);
  }
}
