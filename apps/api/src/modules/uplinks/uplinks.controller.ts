import { Controller, Get, Headers, Param, Query, Res } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { Eui } from '@dts/domain';
import type { Response } from 'express';
import type { AuthPrincipal } from '../../common/auth/auth-principal';
import { CurrentAccount, OrganisationInQuery } from '../../common/auth/auth.decorators';
import { openConnection, sendStream } from '../../common/http/send-stream';
import { EUI_PARAM, EuiParamPipe } from '../../common/http/eui-param.pipe';
import { ApiEnvelope, ApiErrors } from '../../common/openapi/api-envelope.decorator';
import { ApiExportResponse } from '../../common/openapi/api-export.decorator';
import { DataQueryDto, historyStreamKind, TableQueryDto } from './dto/history-query.dto';
import { DataRowResponse, UplinkRecordResponse, UplinkTestResponse } from './dto/uplink.responses';
import { LiveStreamsService } from '../live/live-streams.service';
import { UplinksService } from './uplinks.service';

@ApiTags('data')
@Controller()
export class UplinksController {
  constructor(
    private readonly uplinks: UplinksService,
    private readonly streams: LiveStreamsService,
  ) {}

  @Get('user/device/table/:eui')
  @OrganisationInQuery({ inQueryDto: true })
  @ApiOperation({ summary: 'One row per uplink (the whole history by default, oldest first), streamed as JSON, CSV or NDJSON' })
  @ApiParam(EUI_PARAM)
  @ApiExportResponse([UplinkRecordResponse], {
    csv: 'Columns: `uplink.<member>` for each member of `uplink`, then the other members of the row in their JSON order (`payload_decoded` as JSON text).',
  })
  @ApiErrors('VALIDATION_FAILED', 'AUTH_REQUIRED', 'NOT_FOUND', 'RATE_LIMITED', 'QUERY_TIMEOUT')
  async table(
    @CurrentAccount() me: AuthPrincipal,
    @Param('eui', EuiParamPipe) eui: Eui,
    @Query() query: TableQueryDto,
    @Headers('accept') accept: string | undefined,
    @Res() res: Response,
  ) {
    // Admitted first (per-account cap of exports, revocation, stall timeout), before any database work.
    await this.streams.admit(me, historyStreamKind(query), openConnection(res));
    return sendStream(res, await this.uplinks.table(me, eui, query, accept));
  }

  @Get('user/device/data/:eui')
  @OrganisationInQuery({ inQueryDto: true })
  @ApiOperation({ summary: 'Measurement rows, streamed as JSON, CSV or NDJSON; `filter` picks members and adds meta {data_types, cache_file_version} (JSON)' })
  @ApiParam(EUI_PARAM)
  @ApiExportResponse([DataRowResponse], {
    meta: {
      oneOf: [
        { type: 'array', items: {} },
        { type: 'object', properties: { data_types: { type: 'array', items: { type: 'integer' } }, cache_file_version: { type: 'integer' } } },
      ],
    },
    csv: 'Columns: `uid, ts_unix, time_stamp, humidity, temperature, battery`, plus `geoloc_LAT, geoloc_LON, geoloc_ALT` when the device’s data has a network position (empty on rows without one); with `filter`: `uid, ts_unix, ts_net_unix` and the requested members in their order.',
  })
  @ApiErrors('VALIDATION_FAILED', 'AUTH_REQUIRED', 'NOT_FOUND', 'RATE_LIMITED', 'QUERY_TIMEOUT')
  async data(
    @CurrentAccount() me: AuthPrincipal,
    @Param('eui', EuiParamPipe) eui: Eui,
    @Query() query: DataQueryDto,
    @Headers('accept') accept: string | undefined,
    @Res() res: Response,
  ) {
    // Admitted once the answer's size may be known: a whole history served from the data cache
    // counts its rows, and a device with a short history is a small read, not an export. Only the
    // device, its retention and its cache entry are read before that; a refused read is closed.
    const body = await this.uplinks.data(me, eui, query, accept);
    try {
      await this.streams.admit(me, historyStreamKind(query, body.size), openConnection(res));
    } catch (error) {
      await body.rows[Symbol.asyncIterator]().return?.();
      throw error;
    }
    return sendStream(res, body);
  }

  @Get('test/uplink/:eui')
  @ApiOperation({ summary: 'Decode the newest stored uplink again with the current decoder, storing nothing' })
  @ApiParam(EUI_PARAM)
  @ApiEnvelope(UplinkTestResponse)
  @ApiErrors('VALIDATION_FAILED', 'AUTH_REQUIRED', 'NOT_FOUND')
  test(@CurrentAccount() me: AuthPrincipal, @Param('eui', EuiParamPipe) eui: Eui) {
    return this.uplinks.test(me, eui);
  }
}
