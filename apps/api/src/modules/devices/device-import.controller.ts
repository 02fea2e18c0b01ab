import { Body, Controller, Post, Query, Res } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { DEVICE_IMPORT_COLUMNS, DEVICE_IMPORT_MAX_ROWS } from '@dts/domain';
import type { AuthPrincipal } from '../../common/auth/auth-principal';
import { CurrentAccount, KeyRight } from '../../common/auth/auth.decorators';
import { ApiEnvelope, ApiErrors } from '../../common/openapi/api-envelope.decorator';
import { DeviceImportService } from './device-import.service';
import { DeviceImportQueryDto, DeviceImportResponse } from './dto/device-import.dto';

@ApiTags('devices')
@Controller('user/device/import')
@KeyRight('devices')
export class DeviceImportController {
  constructor(private readonly imports: DeviceImportService) {}

  @Post()
  @ApiOperation({
    summary: `Register up to ${DEVICE_IMPORT_MAX_ROWS.toLocaleString('en')} devices at once, all or none`,
    description:
      `A JSON array of rows {${DEVICE_IMPORT_COLUMNS.join(', ')}} (type, decoder, network and icon by uid or name), the same as text/csv with a header line, ` +
      'or a device export of The Things Stack (ttn-lw-cli end-devices list, its API’s {end_devices}, its ;-separated CSV) or ChirpStack v4 ({totalCount, result}). ' +
      'Every problem names its row and member (rows[3].eui); within max_devices. With dry_run=true nothing is stored and the answer (200) lists what would be registered and every problem.',
  })
  @ApiConsumes('application/json', 'text/csv')
  @ApiBody({
    schema: {
      oneOf: [
        {
          type: 'array',
          maxItems: DEVICE_IMPORT_MAX_ROWS,
          items: {
            type: 'object',
            required: ['eui'],
            properties: {
              eui: { type: 'string', example: '70B3D57ED0000001' },
              label: { type: 'string' },
              type: { oneOf: [{ type: 'integer' }, { type: 'string' }] },
              decoder: { oneOf: [{ type: 'integer' }, { type: 'string' }], example: 'Cayenne LPP' },
              network: { oneOf: [{ type: 'integer' }, { type: 'string' }] },
              icon: { oneOf: [{ type: 'integer' }, { type: 'string' }] },
              folder: { type: 'string' },
              tags: {
                oneOf: [
                  { type: 'array', items: {} },
                  { type: 'object', additionalProperties: true },
                ],
              },
            },
          },
        },
        { type: 'object', description: 'The Things Stack {end_devices} or ChirpStack {totalCount, result}', additionalProperties: true },
        { type: 'string', description: 'text/csv' },
      ],
    },
  })
  @ApiEnvelope(DeviceImportResponse, { status: 201 })
  @ApiErrors('VALIDATION_FAILED', 'MALFORMED_JSON', 'AUTH_REQUIRED', 'ACCOUNT_EXPIRED', 'DEVICE_LIMIT_REACHED', 'DEVICE_EXISTS', 'DEVICE_OWNED_ELSEWHERE')
  async import(@CurrentAccount() me: AuthPrincipal, @Query() query: DeviceImportQueryDto, @Body() body: unknown, @Res({ passthrough: true }) res: Response) {
    const dryRun = query.dry_run === true;
    const answer = await this.imports.import(me, body, dryRun);
    // A dry run stores nothing: 200; an import that registered its rows: 201.
    res.status(dryRun ? 200 : 201);
    return answer;
  }
}
