import { Body, Controller, Get, HttpCode, Patch, Post, Req } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AuthStateWire } from '@dts/domain';
import type { Request } from 'express';
import type { AuthPrincipal } from '../../common/auth/auth-principal';
import { AuthThrottle, CurrentAccount, MasterOnly, Public, PersonalRoute } from '../../common/auth/auth.decorators';
import { ApiEnvelope, ApiErrors } from '../../common/openapi/api-envelope.decorator';
import { AuthStateResponse } from '../auth/dto/auth-responses.dto';
import { AccountResponse } from './dto/account.response';
import { AccountUpdateDto, VerificationMailResponse } from './dto/account-update.dto';
import { UserService } from './user.service';

@ApiTags('account')
@Controller('user')
export class UserController {
  constructor(private readonly users: UserService) {}

  @Get()
  @ApiOperation({ summary: 'The caller’s account' })
  @ApiEnvelope(AccountResponse)
  @ApiErrors('AUTH_REQUIRED', 'INVALID_TOKEN', 'TOKEN_EXPIRED', 'CONFLICTING_CREDENTIALS')
  me(@CurrentAccount() me: AuthPrincipal) {
    return this.users.me(me);
  }

  @Patch()
  @MasterOnly()
  @PersonalRoute()
  @ApiOperation({
    summary: 'Change the account’s e-mail address (session or master token; the password confirms it)',
    description:
      'The new address is kept in `email_pending` and a verification mail goes to it; it becomes the account’s address once verified (POST /auth/verify). The current address withdraws a pending change.',
  })
  @ApiEnvelope(AccountResponse)
  @ApiErrors('VALIDATION_FAILED', 'MALFORMED_JSON', 'AUTH_REQUIRED', 'FORBIDDEN', 'WRONG_PASSWORD', 'EMAIL_TAKEN', 'RATE_LIMITED')
  update(@CurrentAccount() me: AuthPrincipal, @Body() dto: AccountUpdateDto) {
    return this.users.update(me, dto);
  }

  @Post('email/verify')
  @PersonalRoute()
  @AuthThrottle()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Send the verification mail again (to the pending address, else the unverified current one)',
    description: 'A new token: the earlier mail’s stops working. At most VERIFICATION_MAILS_PER_HOUR to one address (then 429 until the hour ends).',
  })
  @ApiEnvelope(VerificationMailResponse)
  @ApiErrors('AUTH_REQUIRED', 'RATE_LIMITED')
  requestVerification(@CurrentAccount() me: AuthPrincipal) {
    return this.users.requestVerification(me);
  }

  @Get('state')
  @Public()
  @ApiOperation({ summary: 'Whether the request is authenticated (never fails for bad credentials)' })
  @ApiEnvelope(AuthStateResponse)
  state(@Req() req: Request): AuthStateWire {
    return { authenticated: Boolean(req.auth) };
  }
}
