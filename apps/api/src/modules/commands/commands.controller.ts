import { Body, Controller, Delete, Get, Param, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { Eui } from '@dts/domain';
import type { AuthPrincipal } from '../../common/auth/auth-principal';
import { CurrentAccount, KeyRight } from '../../common/auth/auth.decorators';
import { EUI_PARAM, EuiParamPipe } from '../../common/http/eui-param.pipe';
import { IntParamPipe } from '../../common/http/int-param.pipe';
import { ApiEnvelope, ApiErrors, ApiOneOfBody } from '../../common/openapi/api-envelope.decorator';
import { CommandsService } from './commands.service';
import { AvailableCommandResponse, CommandCancelledResponse, CommandResponse, CommandsFlushedResponse } from './dto/command.responses';
import { CommandsQueryDto } from './dto/commands-query.dto';
import { AsciiCommandBody, Base64CommandBody, CreateCommandDto, HexCommandBody, NamedCommandBody } from './dto/create-command.dto';

@ApiTags('commands')
@Controller('user/device/command')
@KeyRight('commands')
export class CommandsController {
  constructor(private readonly commands: CommandsService) {}

  @Get(':eui')
  @ApiOperation({
    summary: 'The device’s commands, newest first, in keyset pages (limit, before: the last uid of the previous page), optionally of some statuses',
  })
  @ApiParam(EUI_PARAM)
  @ApiEnvelope([CommandResponse])
  @ApiErrors('VALIDATION_FAILED', 'AUTH_REQUIRED', 'NOT_FOUND')
  list(@CurrentAccount() me: AuthPrincipal, @Param('eui', EuiParamPipe) eui: Eui, @Query() q: CommandsQueryDto) {
    return this.commands.list(me, eui, q);
  }

  @Get(':eui/available')
  @ApiOperation({ summary: 'The named commands the device’s encoder offers, with their parameters' })
  @ApiParam(EUI_PARAM)
  @ApiEnvelope([AvailableCommandResponse])
  @ApiErrors('VALIDATION_FAILED', 'AUTH_REQUIRED', 'NOT_FOUND')
  available(@CurrentAccount() me: AuthPrincipal, @Param('eui', EuiParamPipe) eui: Eui) {
    return this.commands.available(me, eui);
  }

  @Post(':eui')
  @ApiOperation({ summary: 'Send a command: raw {port, payload_*} or named {command, params}; the worker hands it to the network' })
  @ApiParam(EUI_PARAM)
  @ApiOneOfBody('A raw downlink in one of three encodings, or a named command.', HexCommandBody, Base64CommandBody, AsciiCommandBody, NamedCommandBody)
  @ApiEnvelope(CommandResponse, { status: 201 })
  @ApiErrors('VALIDATION_FAILED', 'MALFORMED_JSON', 'AUTH_REQUIRED', 'NOT_FOUND')
  create(@CurrentAccount() me: AuthPrincipal, @Param('eui', EuiParamPipe) eui: Eui, @Body() dto: CreateCommandDto) {
    return this.commands.create(me, eui, dto);
  }

  @Delete(':eui')
  @ApiOperation({
    summary: 'Cancel every command of the device that has not reached it (Created, Scheduled): each is taken out of its network’s queue',
  })
  @ApiParam(EUI_PARAM)
  @ApiEnvelope(CommandsFlushedResponse)
  @ApiErrors('VALIDATION_FAILED', 'AUTH_REQUIRED', 'NOT_FOUND')
  flush(@CurrentAccount() me: AuthPrincipal, @Param('eui', EuiParamPipe) eui: Eui) {
    return this.commands.flush(me, eui);
  }

  @Delete(':eui/:uid')
  @ApiOperation({
    summary:
      'Cancel a command that has not reached the device: Created, or Scheduled (taken out of its network’s queue); 409 once handed to the device, 503 when the network cannot be asked',
  })
  @ApiParam(EUI_PARAM)
  @ApiEnvelope(CommandCancelledResponse)
  @ApiErrors('VALIDATION_FAILED', 'AUTH_REQUIRED', 'NOT_FOUND', 'COMMAND_NOT_CANCELLABLE', 'UNAVAILABLE')
  cancel(@CurrentAccount() me: AuthPrincipal, @Param('eui', EuiParamPipe) eui: Eui, @Param('uid', IntParamPipe) uid: number) {
    return this.commands.cancel(me, eui, uid);
  }
}
