import { Controller, Get, Param, Query, Req, Res } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { refusedAs, signedIn } from '../../common/audit/audit.middleware';
import { Public } from '../../common/auth/auth.decorators';
import { sessionClientOf } from '../../common/auth/session-client';
import { SessionCookies } from '../../common/auth/session-cookies';
import { ApiException } from '../../common/http/api.exception';
import { ApiEnvelope, ApiErrors } from '../../common/openapi/api-envelope.decorator';
import { OidcProviderResponse } from './dto/oidc.dto';
import { OIDC_SIGN_IN_TTL_MS, OidcSignInService } from './oidc-sign-in.service';

/** The sign-in's own cookie: the sealed state between the start and the provider's answer, for this path only. */
const PENDING_COOKIE = 'dts_oidc';
const PENDING_PATH = '/auth/oidc';

/**
 * Single sign-on with OpenID Connect (docs/api.md §3): the browser is sent to the provider and
 * comes back to the callback, which starts a session and sends it on to the console. These are
 * navigations, not calls: they answer with redirects; a refusal goes to the sign-in page with the
 * reason in `sso_error`.
 */
@ApiTags('auth')
@Controller('auth/oidc')
@Public()
export class OidcController {
  constructor(
    private readonly oidc: OidcSignInService,
    private readonly cookies: SessionCookies,
  ) {}

  @Get()
  @ApiOperation({ summary: 'The OpenID Connect providers people may sign in with (OIDC_PROVIDERS)' })
  @ApiEnvelope([OidcProviderResponse])
  providers() {
    return this.oidc.providers();
  }

  @Get(':provider/start')
  @ApiOperation({ summary: 'Start signing in with a provider: a redirect to it (authorization code flow with PKCE)' })
  @ApiParam({ name: 'provider', description: 'The provider’s id (GET /auth/oidc)' })
  @ApiQuery({ name: 'next', required: false, description: 'A console path to go to after signing in (`/console/...`); anything else is the console’s start.' })
  @ApiResponse({ status: 302, description: 'To the provider’s sign-in page.' })
  @ApiErrors('NOT_FOUND', 'UNAVAILABLE')
  async start(@Param('provider') provider: string, @Query('next') next: string | undefined, @Req() req: Request, @Res() res: Response) {
    const { location, sealed } = await this.oidc.start(provider, typeof next === 'string' ? next : undefined);
    res.cookie(PENDING_COOKIE, sealed, {
      httpOnly: true,
      sameSite: 'lax',
      secure: this.cookies.isSecure(req),
      path: PENDING_PATH,
      maxAge: OIDC_SIGN_IN_TTL_MS,
    });
    res.redirect(302, location);
  }

  @Get(':provider/callback')
  @ApiOperation({ summary: 'Where the provider sends the browser back: a session is started and the browser goes on to the console' })
  @ApiParam({ name: 'provider', description: 'The provider’s id' })
  @ApiResponse({ status: 302, description: 'To the console (signed in), or to its sign-in page with `sso_error` saying why not.' })
  async callback(@Param('provider') provider: string, @Req() req: Request, @Res() res: Response) {
    res.clearCookie(PENDING_COOKIE, { path: PENDING_PATH, httpOnly: true, sameSite: 'lax' });
    const callback = new URL(req.originalUrl, 'http://callback.invalid');
    try {
      const done = await this.oidc.finish(
        provider,
        // The provider's answer as openid-client checks it: the registered redirect URI and the query.
        new URL(`${this.oidc.callbackUrlOf(provider)}${callback.search}`),
        this.pendingOf(req),
        this.cookies.read(req),
        sessionClientOf(req),
      );
      this.cookies.write(req, res, done.cookie);
      signedIn(res, done.account.id, done.account.username);
      res.redirect(302, done.next);
    } catch (error) {
      if (!(error instanceof ApiException)) throw error;
      refusedAs(res, error.status);
      res.redirect(302, `/console/sign-in?${new URLSearchParams({ sso_error: error.entries[0]?.message ?? 'the sign-in failed' }).toString()}`);
    }
  }

  private pendingOf(req: Request): string | null {
    this.cookies.read(req); // parses the cookies once
    const value = (req.cookies as Record<string, unknown> | undefined)?.[PENDING_COOKIE];
    return typeof value === 'string' ? value : null;
  }
}
