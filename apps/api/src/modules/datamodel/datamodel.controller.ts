import { Controller, Get, Param } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AuthPrincipal } from '../../common/auth/auth-principal';
import { CurrentAccount } from '../../common/auth/auth.decorators';
import { IntParamPipe } from '../../common/http/int-param.pipe';
import { ApiEnvelope, ApiErrors } from '../../common/openapi/api-envelope.decorator';
import { DatamodelService } from './datamodel.service';
import {
  DatamodelResponse,
  DataTypeResponse,
  DecoderDetailResponse,
  DecoderResponse,
  DeviceTypeResponse,
  IconResponse,
  NetworkByTypeEntryResponse,
  NetworkDetailResponse,
  NetworkResponse,
  NetworkTypeResponse,
} from './dto/datamodel.responses';

@ApiTags('datamodel')
@Controller('datamodel')
export class DatamodelController {
  constructor(private readonly datamodel: DatamodelService) {}

  @Get()
  @ApiOperation({ summary: 'Every enumeration in one object' })
  @ApiEnvelope(DatamodelResponse)
  @ApiErrors('AUTH_REQUIRED')
  everything(@CurrentAccount() me: AuthPrincipal) {
    return this.datamodel.everything(me);
  }

  @Get('network')
  @ApiOperation({ summary: 'Networks available to the account: global ones and its own' })
  @ApiEnvelope([NetworkResponse])
  @ApiErrors('AUTH_REQUIRED')
  networks(@CurrentAccount() me: AuthPrincipal) {
    return this.datamodel.networks(me);
  }

  // Before network/{uid}: "type" is not a uid.
  @Get('network/type')
  @ApiOperation({ summary: 'Network types' })
  @ApiEnvelope([NetworkTypeResponse])
  @ApiErrors('AUTH_REQUIRED')
  networkTypes() {
    return this.datamodel.networkTypes();
  }

  @Get('network/by_type/:uid')
  @ApiOperation({ summary: 'Device models available on a network type ({uid} is a type_ref)' })
  @ApiEnvelope([NetworkByTypeEntryResponse])
  @ApiErrors('VALIDATION_FAILED', 'AUTH_REQUIRED', 'NOT_FOUND')
  networkByType(@Param('uid', IntParamPipe) uid: number) {
    return this.datamodel.networkByType(uid);
  }

  @Get('network/:uid')
  @ApiOperation({ summary: 'One network' })
  @ApiEnvelope(NetworkDetailResponse)
  @ApiErrors('VALIDATION_FAILED', 'AUTH_REQUIRED', 'NOT_FOUND')
  network(@CurrentAccount() me: AuthPrincipal, @Param('uid', IntParamPipe) uid: number) {
    return this.datamodel.network(me, uid);
  }

  @Get('decoder')
  @ApiOperation({ summary: 'Decoders: the built-in ones and the account’s own codecs' })
  @ApiEnvelope([DecoderResponse])
  @ApiErrors('AUTH_REQUIRED')
  decoders(@CurrentAccount() me: AuthPrincipal) {
    return this.datamodel.decoders(me);
  }

  @Get('decoder/:decoder_id')
  @ApiOperation({ summary: 'The device and manufacturer a decoder is for' })
  @ApiEnvelope(DecoderDetailResponse)
  @ApiErrors('VALIDATION_FAILED', 'AUTH_REQUIRED', 'NOT_FOUND')
  decoder(@CurrentAccount() me: AuthPrincipal, @Param('decoder_id', IntParamPipe) id: number) {
    return this.datamodel.decoder(me, id);
  }

  @Get('data/type/all')
  @ApiOperation({ summary: 'Data types' })
  @ApiEnvelope([DataTypeResponse])
  @ApiErrors('AUTH_REQUIRED')
  dataTypes() {
    return this.datamodel.dataTypes();
  }

  @Get('data/type/:type_id')
  @ApiOperation({ summary: 'One data type, as a string holding JSON {uid, label, alias, unit, type, exponent, offset}' })
  @ApiEnvelope('string')
  @ApiErrors('VALIDATION_FAILED', 'AUTH_REQUIRED', 'NOT_FOUND')
  dataType(@Param('type_id', IntParamPipe) id: number) {
    return this.datamodel.dataType(id);
  }

  @Get('icon')
  @ApiOperation({ summary: 'Icons' })
  @ApiEnvelope([IconResponse])
  @ApiErrors('AUTH_REQUIRED')
  icons() {
    return this.datamodel.icons();
  }

  @Get('device/type')
  @ApiOperation({ summary: 'Device types' })
  @ApiEnvelope([DeviceTypeResponse])
  @ApiErrors('AUTH_REQUIRED')
  deviceTypes() {
    return this.datamodel.deviceTypes();
  }
}
