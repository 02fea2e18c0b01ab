import { Controller, Delete, Get, Param, Res } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import type { AuthPrincipal } from '../../common/auth/auth-principal';
import { CurrentAccount, MasterOnly, PersonalRoute } from '../../common/auth/auth.decorators';
import { SessionCookies } from '../../common/auth/session-cookies';
import { ApiEnvelope, ApiErrors } from '../../common/openapi/api-envelope.decorator';
import { UserSessionEndedResponse, UserSessionResponse, UserSessionsEndedResponse } from './dto/session.responses';
import { SessionIdParamPipe } from './session-id-param.pipe';
import { UserSessionsService } from './user-sessions.service';

const ID_PARAM = { name: 'id', description: 'A session id as GET /user/session lists it (24 hexadecimal characters)' };

/**
 * The account's sessions (docs/api.md §3). A session or a master token only: an app token is what
 * scripts and integrations hold, and one that leaked must not learn where the owner signs in nor
 * sign the owner out.
 */
@ApiTags('session')
@PersonalRoute()
@Controller('user/session')
@MasterOnly()
export class UserSessionsController {
  constructor(
    private readonly sessions: UserSessionsService,
    private readonly cookies: SessionCookies,
  ) {}

  @Get()
  @ApiOperation({ summary: 'The account’s live sessions: where it is signed in (session or master token)' })
  @ApiEnvelope([UserSessionResponse])
  @ApiErrors('AUTH_REQUIRED', 'INVALID_TOKEN', 'TOKEN_EXPIRED', 'FORBIDDEN')
  list(@CurrentAccount() me: AuthPrincipal) {
    return this.sessions.list(me);
  }

  @Delete()
  @ApiOperation({ summary: 'End every other session of the account (all of them when called with a master token)' })
  @ApiEnvelope(UserSessionsEndedResponse)
  @ApiErrors('AUTH_REQUIRED', 'INVALID_TOKEN', 'TOKEN_EXPIRED', 'FORBIDDEN')
  endOthers(@CurrentAccount() me: AuthPrincipal) {
    return this.sessions.endOthers(me);
  }

  @Delete(':id')
  @ApiOperation({ summary: 'End one session of the account; ending the caller’s own signs it out and clears its cookie' })
  @ApiParam(ID_PARAM)
  @ApiEnvelope(UserSessionEndedResponse)
  @ApiErrors('VALIDATION_FAILED', 'AUTH_REQUIRED', 'INVALID_TOKEN', 'TOKEN_EXPIRED', 'FORBIDDEN', 'NOT_FOUND')
  async end(@CurrentAccount() me: AuthPrincipal, @Param('id', SessionIdParamPipe) id: string, @Res({ passthrough: true }) res: Response) {
    const ended = await this.sessions.end(me, id);
    if (ended.current) this.cookies.clear(res);
    return ended;
  }
}
