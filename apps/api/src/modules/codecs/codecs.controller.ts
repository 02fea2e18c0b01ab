import { Body, Controller, Delete, Get, Param, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AuthPrincipal } from '../../common/auth/auth-principal';
import { CurrentAccount } from '../../common/auth/auth.decorators';
import { IntParamPipe } from '../../common/http/int-param.pipe';
import { ApiEnvelope, ApiErrors } from '../../common/openapi/api-envelope.decorator';
import { CodecsService } from './codecs.service';
import { CodecDeletedResponse, CodecResponse, CreateCodecDto } from './dto/codec.dto';

@ApiTags('codecs')
@Controller('user/codec')
export class CodecsController {
  constructor(private readonly codecs: CodecsService) {}

  @Get()
  @ApiOperation({ summary: 'The account’s own codecs' })
  @ApiEnvelope([CodecResponse])
  @ApiErrors('AUTH_REQUIRED')
  list(@CurrentAccount() me: AuthPrincipal) {
    return this.codecs.list(me);
  }

  @Post()
  @ApiOperation({ summary: 'Add a vendor JavaScript codec (decodeUplink); checked in the sandbox before it is stored' })
  @ApiEnvelope(CodecResponse, { status: 201 })
  @ApiErrors('VALIDATION_FAILED', 'MALFORMED_JSON', 'AUTH_REQUIRED')
  create(@CurrentAccount() me: AuthPrincipal, @Body() dto: CreateCodecDto) {
    return this.codecs.create(me, dto);
  }

  @Delete(':uid')
  @ApiOperation({ summary: 'Delete a codec; its devices then store payloads undecoded' })
  @ApiEnvelope(CodecDeletedResponse)
  @ApiErrors('VALIDATION_FAILED', 'AUTH_REQUIRED', 'NOT_FOUND')
  delete(@CurrentAccount() me: AuthPrincipal, @Param('uid', IntParamPipe) uid: number) {
    return this.codecs.delete(me, uid);
  }
}
