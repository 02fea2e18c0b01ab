import { Body, Controller, Delete, Get, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AuthPrincipal } from '../../common/auth/auth-principal';
import { CurrentAccount, KeyRight, OrgRole } from '../../common/auth/auth.decorators';
import { ApiResult } from '../../common/http/api-result';
import { ApiEnvelope, ApiErrors } from '../../common/openapi/api-envelope.decorator';
import { ApiTokenResponse } from './dto/api-token.response';
import { CreateTokenDto } from './dto/create-token.dto';
import { DeleteTokenDto } from './dto/delete-token.dto';
import { TokensService } from './tokens.service';

@ApiTags('tokens')
@Controller('user/token')
@KeyRight('keys', { reads: true })
// Keys are an organisation's settings: its admins' and owners' (docs/api.md §20); a person's own account is theirs.
@OrgRole('admin')
export class TokensController {
  constructor(private readonly tokens: TokensService) {}

  @Get()
  @ApiOperation({ summary: 'The account’s active tokens (enabled, not expired); an app token sees the app tokens only' })
  @ApiEnvelope([ApiTokenResponse])
  @ApiErrors('AUTH_REQUIRED', 'INVALID_TOKEN', 'TOKEN_EXPIRED')
  list(@CurrentAccount() me: AuthPrincipal) {
    return this.tokens.list(me);
  }

  @Post()
  @ApiOperation({ summary: 'Create a token; data is its uid, and GET /user/token shows its value' })
  @ApiEnvelope('integer', { status: 201, messages: true })
  @ApiErrors('VALIDATION_FAILED', 'MALFORMED_JSON', 'AUTH_REQUIRED', 'FORBIDDEN', 'TOKEN_LIMIT_REACHED')
  async create(@CurrentAccount() me: AuthPrincipal, @Body() dto: CreateTokenDto) {
    const uid = await this.tokens.create(me, dto);
    return new ApiResult(uid, { messages: [`Token ${uid} created; its value is listed by GET /user/token.`] });
  }

  @Delete()
  @ApiOperation({ summary: 'Delete a token permanently' })
  @ApiEnvelope('integer', { messages: true })
  @ApiErrors('VALIDATION_FAILED', 'AUTH_REQUIRED', 'FORBIDDEN', 'NOT_FOUND')
  async delete(@CurrentAccount() me: AuthPrincipal, @Body() dto: DeleteTokenDto) {
    const uid = await this.tokens.delete(me, dto.uid);
    return new ApiResult(uid, { messages: [`Token ${uid} deleted.`] });
  }
}
