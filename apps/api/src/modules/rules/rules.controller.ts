import { Body, Controller, Delete, Get, Param, Patch, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AuthPrincipal } from '../../common/auth/auth-principal';
import { CurrentAccount, KeyRight } from '../../common/auth/auth.decorators';
import { IntParamPipe } from '../../common/http/int-param.pipe';
import { ApiEnvelope, ApiErrors } from '../../common/openapi/api-envelope.decorator';
import { CreateRuleDto, RuleDeletedResponse, RuleResponse, UpdateRuleDto } from './dto/rule.dto';
import { RulesService } from './rules.service';

const KINDS = [
  '`fence` {fence, on: enter|leave}: fires when a device enters or leaves (its first position only sets where it is);',
  '`offline` {minutes}: no uplink for that long, cleared by the next;',
  '`threshold` {member, above | below, hysteresis?}: a measurement past a limit, cleared once back by more than the hysteresis;',
  '`battery` {measure: percent|voltage, below, hysteresis?}.',
].join('\n');

@ApiTags('alerts')
@Controller('user/rule')
@KeyRight('automation')
export class RulesController {
  constructor(private readonly rules: RulesService) {}

  @Get()
  @ApiOperation({ summary: 'The account’s alert rules' })
  @ApiEnvelope([RuleResponse])
  @ApiErrors('AUTH_REQUIRED')
  list(@CurrentAccount() me: AuthPrincipal) {
    return this.rules.list(me);
  }

  @Get(':uid')
  @ApiOperation({ summary: 'One alert rule' })
  @ApiEnvelope(RuleResponse)
  @ApiErrors('VALIDATION_FAILED', 'AUTH_REQUIRED', 'NOT_FOUND')
  one(@CurrentAccount() me: AuthPrincipal, @Param('uid', IntParamPipe) uid: number) {
    return this.rules.one(me, uid);
  }

  @Post()
  @ApiOperation({ summary: 'Create an alert rule', description: KINDS })
  @ApiEnvelope(RuleResponse, { status: 201 })
  @ApiErrors('VALIDATION_FAILED', 'MALFORMED_JSON', 'AUTH_REQUIRED', 'NOT_FOUND', 'LIMIT_REACHED')
  create(@CurrentAccount() me: AuthPrincipal, @Body() dto: CreateRuleDto) {
    return this.rules.create(me, dto);
  }

  @Patch(':uid')
  @ApiOperation({ summary: 'Change an alert rule (not its kind); its per-device states start over' })
  @ApiEnvelope(RuleResponse)
  @ApiErrors('VALIDATION_FAILED', 'MALFORMED_JSON', 'AUTH_REQUIRED', 'NOT_FOUND')
  update(@CurrentAccount() me: AuthPrincipal, @Param('uid', IntParamPipe) uid: number, @Body() dto: UpdateRuleDto) {
    return this.rules.update(me, uid, dto);
  }

  @Delete(':uid')
  @ApiOperation({ summary: 'Delete an alert rule (its alerts stay, to be read and acknowledged)' })
  @ApiEnvelope(RuleDeletedResponse)
  @ApiErrors('VALIDATION_FAILED', 'AUTH_REQUIRED', 'NOT_FOUND')
  delete(@CurrentAccount() me: AuthPrincipal, @Param('uid', IntParamPipe) uid: number) {
    return this.rules.delete(me, uid);
  }
}
