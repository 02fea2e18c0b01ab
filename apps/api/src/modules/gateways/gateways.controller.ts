import { Controller, Get, Param } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AuthPrincipal } from '../../common/auth/auth-principal';
import { CurrentAccount } from '../../common/auth/auth.decorators';
import { IntParamPipe } from '../../common/http/int-param.pipe';
import { ApiEnvelope, ApiErrors } from '../../common/openapi/api-envelope.decorator';
import { GatewayResponse } from './dto/gateway.response';
import { GatewaysService } from './gateways.service';

@ApiTags('gateways')
@Controller('user/gateways')
export class GatewaysController {
  constructor(private readonly gateways: GatewaysService) {}

  @Get()
  @ApiOperation({ summary: 'Gateways that received the caller’s devices’ uplinks' })
  @ApiEnvelope([GatewayResponse])
  @ApiErrors('AUTH_REQUIRED')
  list(@CurrentAccount() me: AuthPrincipal) {
    return this.gateways.list(me, null);
  }

  @Get(':network_ref')
  @ApiOperation({ summary: 'The same, on one network' })
  @ApiEnvelope([GatewayResponse])
  @ApiErrors('VALIDATION_FAILED', 'AUTH_REQUIRED', 'NOT_FOUND')
  byNetwork(@CurrentAccount() me: AuthPrincipal, @Param('network_ref', IntParamPipe) networkRef: number) {
    return this.gateways.list(me, networkRef);
  }
}
