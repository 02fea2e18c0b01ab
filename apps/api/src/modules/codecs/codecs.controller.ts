import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AuthPrincipal } from '../../common/auth/auth-principal';
import { CurrentAccount, KeyRight } from '../../common/auth/auth.decorators';
import { IntParamPipe } from '../../common/http/int-param.pipe';
import { ApiEnvelope, ApiErrors } from '../../common/openapi/api-envelope.decorator';
import { CodecsService } from './codecs.service';
import { CodecDeletedResponse, CodecResponse, CodecTryResponse, CreateCodecDto, ImportCodecDto, TryCodecDto, UpdateCodecDto } from './dto/codec.dto';

@ApiTags('codecs')
@Controller('user/codec')
@KeyRight('codecs')
export class CodecsController {
  constructor(private readonly codecs: CodecsService) {}

  @Get()
  @ApiOperation({ summary: 'The account’s own codecs, with their examples and results' })
  @ApiEnvelope([CodecResponse])
  @ApiErrors('AUTH_REQUIRED')
  list(@CurrentAccount() me: AuthPrincipal) {
    return this.codecs.list(me);
  }

  @Post()
  @ApiOperation({
    summary: 'Add a vendor JavaScript codec (decodeUplink); checked in the sandbox before it is stored',
    description:
      'Loaded on a codec thread, off the event loop, within its load deadline (200 ms and 1 ms per KiB): a script whose top level loops is refused (400 naming script). At most 100 codecs per account.',
  })
  @ApiEnvelope(CodecResponse, { status: 201 })
  @ApiErrors('VALIDATION_FAILED', 'MALFORMED_JSON', 'AUTH_REQUIRED', 'LIMIT_REACHED')
  create(@CurrentAccount() me: AuthPrincipal, @Body() dto: CreateCodecDto) {
    return this.codecs.create(me, dto);
  }

  @Post('import')
  @ApiOperation({
    summary: 'Import a codec from The Things Network device repository’s layout: its codec YAML and the scripts it names',
    description:
      'The YAML’s examples become the codec’s own test cases: they run at import on a codec thread, within the account’s codec CPU budget, and are stored with their results (pass/fail). 429 with Retry-After when the account’s codec budget for the minute is spent.',
  })
  @ApiEnvelope(CodecResponse, { status: 201 })
  @ApiErrors('VALIDATION_FAILED', 'MALFORMED_JSON', 'AUTH_REQUIRED', 'LIMIT_REACHED', 'RATE_LIMITED')
  import(@CurrentAccount() me: AuthPrincipal, @Body() dto: ImportCodecDto) {
    return this.codecs.import(me, dto);
  }

  @Post('try')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Decode given bytes with a draft script, and/or run a stored codec’s examples with it; nothing is stored',
    description:
      'Runs on the codec threads like every codec, with the same limits, charged to the account’s codec CPU budget (per request and per minute); at most 2 of an account at once. 429 with Retry-After past either.',
  })
  @ApiEnvelope(CodecTryResponse)
  @ApiErrors('VALIDATION_FAILED', 'MALFORMED_JSON', 'AUTH_REQUIRED', 'NOT_FOUND', 'RATE_LIMITED')
  try(@CurrentAccount() me: AuthPrincipal, @Body() dto: TryCodecDto) {
    return this.codecs.try(me, dto);
  }

  @Get(':uid')
  @ApiOperation({ summary: 'One codec of the account, with its examples and results' })
  @ApiEnvelope(CodecResponse)
  @ApiErrors('VALIDATION_FAILED', 'AUTH_REQUIRED', 'NOT_FOUND')
  get(@CurrentAccount() me: AuthPrincipal, @Param('uid', IntParamPipe) uid: number) {
    return this.codecs.get(me, uid);
  }

  @Patch(':uid')
  @ApiOperation({
    summary: 'Change a codec’s name, description or script',
    description:
      'A new script is checked, runs the codec’s examples again (within the account’s codec budget: 429 with Retry-After when spent), and the devices that decode with the codec have their history decoded again.',
  })
  @ApiEnvelope(CodecResponse)
  @ApiErrors('VALIDATION_FAILED', 'MALFORMED_JSON', 'AUTH_REQUIRED', 'NOT_FOUND', 'RATE_LIMITED')
  update(@CurrentAccount() me: AuthPrincipal, @Param('uid', IntParamPipe) uid: number, @Body() dto: UpdateCodecDto) {
    return this.codecs.update(me, uid, dto);
  }

  @Delete(':uid')
  @ApiOperation({ summary: 'Delete a codec; its devices then store payloads undecoded' })
  @ApiEnvelope(CodecDeletedResponse)
  @ApiErrors('VALIDATION_FAILED', 'AUTH_REQUIRED', 'NOT_FOUND')
  delete(@CurrentAccount() me: AuthPrincipal, @Param('uid', IntParamPipe) uid: number) {
    return this.codecs.delete(me, uid);
  }
}
