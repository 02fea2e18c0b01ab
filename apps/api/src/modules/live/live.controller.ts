import { Controller, Get, Headers, Param, Res } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Eui } from '@dts/domain';
import type { Response } from 'express';
import type { AuthPrincipal } from '../../common/auth/auth-principal';
import { CurrentAccount, OrganisationInQuery } from '../../common/auth/auth.decorators';
import { EUI_PARAM, EuiParamPipe } from '../../common/http/eui-param.pipe';
import { eventStream } from '../../common/http/send-stream';
import { ApiErrors } from '../../common/openapi/api-envelope.decorator';
import { LiveFeedService } from './live-feed.service';

const STREAM_DESCRIPTION = [
  'Server-Sent Events (`text/event-stream`), open until the client leaves:',
  '- `event: uplink`, `id: <uplink uid>`, `data:` a row of GET /user/device/table/{eui} — each new uplink of the device, once, in uid order;',
  '- `event: command`, `data:` a command as GET /user/device/command/{eui} lists it — on creation and on each status change (no `id`);',
  '- `event: alert`, `data:` an alert of the caller’s account as GET /user/alert lists it — when raised and when cleared (no `id`);',
  '- `event: image`, `data:` an image as GET /user/image lists it, with `deleted` — when stored, when its status or annotations change and when deleted (no `id`);',
  '- a comment line every 15 s (heartbeat), and `retry: 3000`.',
  'Reconnecting with `Last-Event-ID` (EventSource does it by itself) first replays the uplinks after that id, then continues live.',
  'Credentials and the device are checked before the stream starts: failures are the usual error envelopes.',
  'At most STREAMS_PER_ACCOUNT feeds per account and instance (429 RATE_LIMITED with Retry-After past them, before any database work); the stream is cut when its credential ends (token deleted or expired, logout, password change or reset, account deleted) and when its client takes no bytes for STREAM_STALL_TIMEOUT_MS.',
].join('\n');

const ACCOUNT_DESCRIPTION = [
  'The events of GET /user/device/live/{eui} for every device the account owns or that is shared with it, on one connection',
  '(browsers allow about six per host over HTTP/1.1). `data.uplink.devEUI` and a command’s `devEUI` name the device.',
  'Devices registered or shared later join with their first event; a device deleted, handed over or no longer shared leaves at its next event.',
  'Reconnecting with `Last-Event-ID` replays the account’s uplinks with a higher uid (exact per device; an uplink of another device whose',
  'delivery committed after the reconnect with a lower uid is not), then continues live.',
].join('\n');

@ApiTags('data')
@Controller('user')
export class LiveController {
  constructor(private readonly live: LiveFeedService) {}

  @Get('device/live/:eui')
  @OrganisationInQuery()
  @ApiOperation({
    summary: 'New uplinks, command status changes, alerts and image changes of a device, live (Server-Sent Events)',
    description: STREAM_DESCRIPTION,
  })
  @ApiParam(EUI_PARAM)
  @ApiHeader({ name: 'Last-Event-ID', required: false, description: 'The `id` of the last uplink event received: the uplinks after it are sent first.' })
  @ApiResponse({
    status: 200,
    description: 'The event stream.',
    content: {
      'text/event-stream': {
        schema: {
          type: 'string',
          example: 'id: 1042\nevent: uplink\ndata: {"uplink":{"uid":1042,…},…}\n\nevent: command\ndata: {"uid":7,"status":"Scheduled",…}\n\n',
        },
      },
    },
    headers: { 'X-Accel-Buffering': { description: '`no`: proxies pass events on at once.', schema: { type: 'string' } } },
  })
  @ApiErrors('VALIDATION_FAILED', 'AUTH_REQUIRED', 'NOT_FOUND', 'RATE_LIMITED', 'UNAVAILABLE')
  open(
    @CurrentAccount() me: AuthPrincipal,
    @Param('eui', EuiParamPipe) eui: Eui,
    @Headers('last-event-id') lastEventId: string | undefined,
    @Res() res: Response,
  ) {
    return this.live.open(me, eui, lastEventId, eventStream(res));
  }

  @Get('live')
  @OrganisationInQuery()
  @ApiOperation({
    summary: 'New uplinks, command status changes, alerts and image changes of every device of the account, live (Server-Sent Events)',
    description: ACCOUNT_DESCRIPTION,
  })
  @ApiHeader({
    name: 'Last-Event-ID',
    required: false,
    description: 'The `id` of the last uplink event received: the account’s uplinks after it are sent first.',
  })
  @ApiResponse({
    status: 200,
    description: 'The event stream.',
    content: {
      'text/event-stream': {
        schema: { type: 'string', example: 'id: 1042\nevent: uplink\ndata: {"uplink":{"uid":1042,"devEUI":"70B3D57ED0DE0001",…},…}\n\n' },
      },
    },
    headers: { 'X-Accel-Buffering': { description: '`no`: proxies pass events on at once.', schema: { type: 'string' } } },
  })
  @ApiErrors('AUTH_REQUIRED', 'UNAVAILABLE')
  openAccount(@CurrentAccount() me: AuthPrincipal, @Headers('last-event-id') lastEventId: string | undefined, @Res() res: Response) {
    return this.live.openAccount(me, lastEventId, eventStream(res));
  }
}
