import { Body, Controller, Delete, Get, Param, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AuthPrincipal } from '../../common/auth/auth-principal';
import { CurrentAccount, KeyRight, OrgRole } from '../../common/auth/auth.decorators';
import { IntParamPipe } from '../../common/http/int-param.pipe';
import { ApiEnvelope, ApiErrors } from '../../common/openapi/api-envelope.decorator';
import { CreateNetworkDto, NetworkConfigResponse, NetworkDeletedResponse } from './dto/network.dto';
import { NetworksService } from './networks.service';

@ApiTags('networks')
@Controller('user/network')
@KeyRight('networks')
export class NetworksController {
  constructor(private readonly networks: NetworksService) {}

  @Get()
  @ApiOperation({ summary: 'The account’s own networks (never their keys)' })
  @ApiEnvelope([NetworkConfigResponse])
  @ApiErrors('AUTH_REQUIRED')
  list(@CurrentAccount() me: AuthPrincipal) {
    return this.networks.list(me);
  }

  @Post()
  @OrgRole('admin')
  @ApiOperation({ summary: 'Add a ChirpStack or The Things Stack network for downlinks; use its uid as a device’s network_ref' })
  @ApiEnvelope(NetworkConfigResponse, { status: 201 })
  @ApiErrors('VALIDATION_FAILED', 'MALFORMED_JSON', 'AUTH_REQUIRED')
  create(@CurrentAccount() me: AuthPrincipal, @Body() dto: CreateNetworkDto) {
    return this.networks.create(me, dto);
  }

  @Delete(':uid')
  @OrgRole('admin')
  @ApiOperation({ summary: 'Delete one of the account’s networks; its devices are left without a network' })
  @ApiEnvelope(NetworkDeletedResponse)
  @ApiErrors('VALIDATION_FAILED', 'AUTH_REQUIRED', 'NOT_FOUND')
  delete(@CurrentAccount() me: AuthPrincipal, @Param('uid', IntParamPipe) uid: number) {
    return this.networks.delete(me, uid);
  }
}
