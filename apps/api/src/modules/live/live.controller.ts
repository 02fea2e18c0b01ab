import { Controller, Get, Headers, Param, Res } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Eui } from '@dts/domain';
import type { Response } from 'express';
import type { AuthPrincipal } from '../../common/auth/auth-principal';
import { CurrentAccount } from '../../common/auth/auth.decorators';
import { RawResponse } from '../../common/http/envelope.interceptor';
import { EuiParamPipe } from '../../common/http/eui-param.pipe';
import { ApiErrors } from '../../common/openapi/api-envelope.decorator';
import { EUI_PARAM } from '../devices/devices.controller';
import { LiveFeedService } from './live-feed.service';

const STREAM_DESCRIPTION = [
  'Server-Sent Events (`text/event-stream`), open until the client leaves:',
  '- `event: uplink`, `id: <uplink uid>`, `data:` a row of GET /user/device/table/{eui} — each new uplink of the device, once, in uid order;',
  '- `event: command`, `data:` a command as GET /user/device/command/{eui} lists it — on creation and on each status change (no `id`);',
  '- a comment line every 15 s (heartbeat), and `retry: 3000`.',
  'Reconnecting with `Last-Event-ID` (EventSource does it by itself) first replays the uplinks after that id, then continues live.',
  'Credentials and the device are checked before the stream starts: failures are the usual error envelopes.',
].join('\n');

@ApiTags('data')
@Controller('user/device/live')
export class LiveController {
  constructor(private readonly live: LiveFeedService) {}

  @Get(':eui')
  @RawResponse()
  @ApiOperation({ summary: 'New uplinks and command status changes of a device, live (Server-Sent Events)', description: STREAM_DESCRIPTION })
  @ApiParam(EUI_PARAM)
  @ApiHeader({ name: 'Last-Event-ID', required: false, description: 'The `id` of the last uplink event received: the uplinks after it are sent first.' })
  @ApiResponse({
    status: 200,
    description: 'The event stream.',
    content: { 'text/event-stream': { schema: { type: 'string', example: 'id: 1042\nevent: uplink\ndata: {"uplink":{"uid":1042,…},…}\n\nevent: command\ndata: {"uid":7,"status":"Scheduled",…}\n\n' } } },
    headers: { 'X-Accel-Buffering': { description: '`no`: proxies pass events on at once.', schema: { type: 'string' } } },
  })
  @ApiErrors('VALIDATION_FAILED', 'AUTH_REQUIRED', 'NOT_FOUND', 'UNAVAILABLE')
  open(@CurrentAccount() me: AuthPrincipal, @Param('eui', EuiParamPipe) eui: Eui, @Headers('last-event-id') lastEventId: string | undefined, @Res() res: Response) {
    return this.live.open(me, eui, lastEventId, res);
  }
}
