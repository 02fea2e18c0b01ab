import { Controller, Get } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AuthPrincipal } from '../../common/auth/auth-principal';
import { CurrentAccount } from '../../common/auth/auth.decorators';
import { ApiEnvelope, ApiErrors } from '../../common/openapi/api-envelope.decorator';
import { DatamodelService } from './datamodel.service';
import { DataTypeResponse } from './dto/datamodel.responses';

@ApiTags('devices')
@Controller('user/device/data/type')
export class DeviceDataTypesController {
  constructor(private readonly datamodel: DatamodelService) {}

  @Get('all')
  @ApiOperation({ summary: 'The data types that occur in the data of the caller’s devices' })
  @ApiEnvelope([DataTypeResponse])
  @ApiErrors('AUTH_REQUIRED')
  inUse(@CurrentAccount() me: AuthPrincipal) {
    return this.datamodel.dataTypesInUse(me);
  }
}
