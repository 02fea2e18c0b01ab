import { Controller, Get, Req } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type SessionActiveWire, type SessionAttributesWire, type SessionCookieWire, toUnix } from '@dts/domain';
import type { Request } from 'express';
import type { AuthPrincipal } from '../../common/auth/auth-principal';
import { CurrentAccount, PersonalRoute } from '../../common/auth/auth.decorators';
import { SessionCookies } from '../../common/auth/session-cookies';
import { ApiEnvelope, ApiErrors } from '../../common/openapi/api-envelope.decorator';
import { SessionActiveResponse, SessionAttributesResponse, SessionCookieResponse } from './dto/session.responses';

const unixOrNull = (d: Date | null) => (d ? toUnix(d) : null);

/** The caller's session. Called with a token instead, they describe the absence of one. */
@ApiTags('session')
@PersonalRoute()
@Controller('session')
export class SessionsController {
  constructor(private readonly cookies: SessionCookies) {}

  @Get('active')
  @ApiOperation({ summary: 'Whether the caller is in a session, and when it ends' })
  @ApiEnvelope(SessionActiveResponse)
  @ApiErrors('AUTH_REQUIRED')
  active(@CurrentAccount() me: AuthPrincipal): SessionActiveWire {
    return { active: me.via === 'session', expires_unix: unixOrNull(me.sessionExpiresAt) };
  }

  @Get('cookie')
  @ApiOperation({ summary: 'The session cookie’s attributes (never its value)' })
  @ApiEnvelope(SessionCookieResponse)
  @ApiErrors('AUTH_REQUIRED')
  cookie(@CurrentAccount() me: AuthPrincipal, @Req() req: Request): SessionCookieWire {
    return {
      name: this.cookies.name,
      expires_unix: unixOrNull(me.sessionExpiresAt),
      http_only: true,
      secure: this.cookies.isSecure(req),
      same_site: 'lax',
    };
  }

  @Get('attributes')
  @ApiOperation({ summary: 'Who the session belongs to and when it was used' })
  @ApiEnvelope(SessionAttributesResponse)
  @ApiErrors('AUTH_REQUIRED')
  attributes(@CurrentAccount() me: AuthPrincipal): SessionAttributesWire {
    return { user_id: me.accountId, username: me.username, created_unix: unixOrNull(me.sessionCreatedAt), last_seen_unix: unixOrNull(me.sessionLastSeenAt) };
  }
}
