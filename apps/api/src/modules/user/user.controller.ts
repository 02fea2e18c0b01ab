import { Controller, Get, Req } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AuthStateWire } from '@dts/domain';
import type { Request } from 'express';
import type { AuthPrincipal } from '../../common/auth/auth-principal';
import { CurrentAccount, Public } from '../../common/auth/auth.decorators';
import { ApiEnvelope, ApiErrors } from '../../common/openapi/api-envelope.decorator';
import { AuthStateResponse } from '../auth/dto/auth-responses.dto';
import { AccountResponse } from './dto/account.response';
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

  @Get('state')
  @Public()
  @ApiOperation({ summary: 'Whether the request is authenticated (never fails for bad credentials)' })
  @ApiEnvelope(AuthStateResponse)
  state(@Req() req: Request): AuthStateWire {
    return { authenticated: Boolean(req.auth) };
  }
}
