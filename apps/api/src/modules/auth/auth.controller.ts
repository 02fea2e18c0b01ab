import { Body, Controller, Delete, Get, HttpCode, Post, Req, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { EchoWire } from '@dts/domain';
import type { Request, Response } from 'express';
import type { AuthPrincipal } from '../../common/auth/auth-principal';
import { AuthThrottle, CurrentAccount, MasterOnly, Public, PersonalRoute } from '../../common/auth/auth.decorators';
import { signedIn } from '../../common/audit/audit.middleware';
import { sessionClientOf } from '../../common/auth/session-client';
import { SessionCookies } from '../../common/auth/session-cookies';
import { ApiResult } from '../../common/http/api-result';
import { ApiEnvelope, ApiErrors, ApiOneOfBody } from '../../common/openapi/api-envelope.decorator';
import { AuthService, RESTORE_MESSAGE } from './auth.service';
import { AccountDeletedResponse, AuthStateResponse, CredentialCheckResponse, EchoResponse, RegisterResultResponse } from './dto/auth-responses.dto';
import { LoginDto } from './dto/login.dto';
import { DeleteAccountDto, PasswordChangeDto } from './dto/password.dto';
import { RegisterDto } from './dto/register.dto';
import { RestoreByEmailBody, RestoreByTokenBody, RestoreDto } from './dto/restore.dto';
import { EmailVerifiedResponse, EmailVerifyDto } from './dto/verify.dto';

@ApiTags('auth')
@PersonalRoute()
@Controller('auth')
export class AuthController {
  constructor(
    private readonly auth: AuthService,
    private readonly cookies: SessionCookies,
  ) {}

  @Post('register')
  @Public()
  @AuthThrottle()
  @ApiOperation({ summary: 'Create an account' })
  @ApiEnvelope(RegisterResultResponse, { status: 201 })
  @ApiErrors('VALIDATION_FAILED', 'MALFORMED_JSON', 'USERNAME_TAKEN', 'EMAIL_TAKEN', 'RATE_LIMITED')
  register(@Body() dto: RegisterDto) {
    return this.auth.register(dto);
  }

  @Delete('register')
  @MasterOnly()
  @ApiOperation({ summary: 'Delete the caller’s account and everything it owns (session or master token)' })
  @ApiEnvelope(AccountDeletedResponse)
  @ApiErrors('VALIDATION_FAILED', 'AUTH_REQUIRED', 'FORBIDDEN', 'WRONG_PASSWORD')
  async deleteAccount(@CurrentAccount() me: AuthPrincipal, @Body() dto: DeleteAccountDto, @Res({ passthrough: true }) res: Response) {
    const deleted = await this.auth.deleteAccount(me, dto.password);
    this.cookies.clear(res);
    return deleted;
  }

  @Post('login')
  @Public()
  @AuthThrottle()
  @HttpCode(200)
  @ApiOperation({ summary: 'Start a session (sets an HttpOnly cookie)' })
  @ApiEnvelope(AuthStateResponse)
  @ApiErrors('VALIDATION_FAILED', 'INVALID_CREDENTIALS', 'ACCOUNT_DISABLED', 'RATE_LIMITED')
  async login(@Body() dto: LoginDto, @Req() req: Request, @Res({ passthrough: true }) res: Response) {
    const { state, cookie, account } = await this.auth.login(dto, this.cookies.read(req), sessionClientOf(req));
    this.cookies.write(req, res, cookie);
    signedIn(res, account.id, account.username);
    return state;
  }

  @Post('logout')
  @HttpCode(200)
  @ApiOperation({ summary: 'End the session' })
  @ApiEnvelope(AuthStateResponse)
  @ApiErrors('AUTH_REQUIRED')
  async logout(@Req() req: Request, @Res({ passthrough: true }) res: Response) {
    const state = await this.auth.logout(req.auth, this.cookies.read(req));
    this.cookies.clear(res);
    return state;
  }

  @Post('check')
  @Public()
  @AuthThrottle()
  @HttpCode(200)
  @ApiOperation({ summary: 'Check credentials without starting a session' })
  @ApiEnvelope(CredentialCheckResponse)
  @ApiErrors('VALIDATION_FAILED', 'RATE_LIMITED')
  check(@Body() dto: LoginDto) {
    return this.auth.check(dto);
  }

  @Get('echo')
  @Public()
  @ApiOperation({ summary: 'Echo what the service sees of the request (never cookies or credentials)' })
  @ApiEnvelope(EchoResponse)
  echo(@Req() req: Request): EchoWire {
    // What the request looks like on arrival: HTTP and nothing else, so it is read here.
    return {
      method: req.method,
      path: req.path,
      query: req.query as Record<string, unknown>,
      ip: req.ip ?? null,
      user_agent: req.headers['user-agent'] ?? null,
      authenticated: Boolean(req.auth),
    };
  }

  @Post('restore')
  @Public()
  @AuthThrottle()
  @HttpCode(200)
  @ApiOperation({ summary: 'Password reset: {email} mails a token; {token, password} sets the password' })
  @ApiOneOfBody('One of the two steps.', RestoreByEmailBody, RestoreByTokenBody)
  @ApiEnvelope('null', { messages: true })
  @ApiErrors('VALIDATION_FAILED', 'INVALID_RESET_TOKEN', 'RATE_LIMITED')
  async restore(@Body() dto: RestoreDto) {
    await this.auth.restore(dto);
    return new ApiResult(null, {
      messages: [dto.token !== undefined ? 'The password has been changed; every session of the account has ended.' : RESTORE_MESSAGE],
    });
  }

  @Post('verify')
  @Public()
  @AuthThrottle()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Confirm an e-mail address with the token mailed to it',
    description:
      'The account’s address becomes verified (alert mail may go to it), or the address it asked to change to replaces it, verified. The same token again answers the same while that address is the account’s.',
  })
  @ApiEnvelope(EmailVerifiedResponse)
  @ApiErrors('VALIDATION_FAILED', 'MALFORMED_JSON', 'INVALID_VERIFICATION_TOKEN', 'EMAIL_TAKEN', 'RATE_LIMITED')
  verify(@Body() dto: EmailVerifyDto) {
    return this.auth.verifyEmail(dto.token);
  }

  @Post('pwdchange')
  @MasterOnly()
  @HttpCode(200)
  @ApiOperation({ summary: 'Change the password (session or master token); other sessions end' })
  @ApiEnvelope('null', { messages: true })
  @ApiErrors('VALIDATION_FAILED', 'AUTH_REQUIRED', 'FORBIDDEN', 'WRONG_PASSWORD')
  async changePassword(@CurrentAccount() me: AuthPrincipal, @Body() dto: PasswordChangeDto) {
    await this.auth.changePassword(me, dto);
    return new ApiResult(null, { messages: ['The password has been changed.'] });
  }
}
