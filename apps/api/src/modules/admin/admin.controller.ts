import { Controller, Get } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminOnly } from '../../common/auth/auth.decorators';
import { ApiEnvelope, ApiErrors } from '../../common/openapi/api-envelope.decorator';
import { AdminService } from './admin.service';
import { AdminInfoResponse } from './dto/admin-info.responses';

@ApiTags('admin')
@Controller('admin')
@AdminOnly()
export class AdminController {
  constructor(private readonly admin: AdminService) {}

  @Get('info')
  @ApiOperation({ summary: 'Version, uptime, totals, queue depths, database and cache' })
  @ApiEnvelope(AdminInfoResponse)
  @ApiErrors('AUTH_REQUIRED', 'ADMIN_ONLY')
  info() {
    return this.admin.info();
  }
}
