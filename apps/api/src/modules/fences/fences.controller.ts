import { Body, Controller, Delete, Get, Param, Patch, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AuthPrincipal } from '../../common/auth/auth-principal';
import { CurrentAccount, KeyRight } from '../../common/auth/auth.decorators';
import { IntParamPipe } from '../../common/http/int-param.pipe';
import { ApiEnvelope, ApiErrors } from '../../common/openapi/api-envelope.decorator';
import { CreateFenceDto } from './dto/create-fence.dto';
import { FenceDeletedResponse, FenceDeviceResponse, FenceResponse } from './dto/fence.responses';
import { UpdateFenceDto } from './dto/update-fence.dto';
import { FencesService } from './fences.service';

@ApiTags('fences')
@Controller('user/fence')
@KeyRight('automation')
export class FencesController {
  constructor(private readonly fences: FencesService) {}

  @Get()
  @ApiOperation({ summary: 'The account’s geofences' })
  @ApiEnvelope([FenceResponse])
  @ApiErrors('AUTH_REQUIRED')
  list(@CurrentAccount() me: AuthPrincipal) {
    return this.fences.list(me);
  }

  @Get(':uid')
  @ApiOperation({ summary: 'One geofence' })
  @ApiEnvelope(FenceResponse)
  @ApiErrors('VALIDATION_FAILED', 'AUTH_REQUIRED', 'NOT_FOUND')
  one(@CurrentAccount() me: AuthPrincipal, @Param('uid', IntParamPipe) uid: number) {
    return this.fences.one(me, uid);
  }

  @Get(':uid/devices')
  @ApiOperation({
    summary: 'The account’s devices inside the geofence',
    description: 'By each device’s last reported position, or its installation position when it never reported one; holes excluded; ordered by EUI.',
  })
  @ApiEnvelope([FenceDeviceResponse])
  @ApiErrors('VALIDATION_FAILED', 'AUTH_REQUIRED', 'NOT_FOUND')
  devices(@CurrentAccount() me: AuthPrincipal, @Param('uid', IntParamPipe) uid: number) {
    return this.fences.devices(me, uid);
  }

  @Patch(':uid')
  @ApiOperation({ summary: 'Rename and/or reshape a geofence (alert rules on it judge the next uplinks by the new shape)' })
  @ApiEnvelope(FenceResponse)
  @ApiErrors('VALIDATION_FAILED', 'MALFORMED_JSON', 'AUTH_REQUIRED', 'NOT_FOUND')
  update(@CurrentAccount() me: AuthPrincipal, @Param('uid', IntParamPipe) uid: number, @Body() dto: UpdateFenceDto) {
    return this.fences.update(me, uid, dto);
  }

  @Post()
  @ApiOperation({ summary: 'Create a geofence from a GeoJSON Polygon' })
  @ApiEnvelope(FenceResponse, { status: 201 })
  @ApiErrors('VALIDATION_FAILED', 'MALFORMED_JSON', 'AUTH_REQUIRED')
  create(@CurrentAccount() me: AuthPrincipal, @Body() dto: CreateFenceDto) {
    return this.fences.create(me, dto);
  }

  @Delete(':uid')
  @ApiOperation({ summary: 'Delete a geofence' })
  @ApiEnvelope(FenceDeletedResponse)
  @ApiErrors('VALIDATION_FAILED', 'AUTH_REQUIRED', 'NOT_FOUND')
  delete(@CurrentAccount() me: AuthPrincipal, @Param('uid', IntParamPipe) uid: number) {
    return this.fences.delete(me, uid);
  }
}
