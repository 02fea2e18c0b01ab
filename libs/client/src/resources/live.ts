import type { AlertWire, CommandWire, ImageLiveEventWire, UplinkRecordWire } from '@dts/domain';
import type { ClientRoute, PathParams } from '../routes';
import { readSse } from '../sse';
import type { Transport } from '../transport';

/**
 * An event of GET /user/device/live/{eui}: a new uplink (with its uid as `id`), a command's new
 * status, an alert raised or cleared, an image stored, processed, annotated or deleted.
 */
export type LiveEvent =
  | { event: 'uplink'; id: string; data: UplinkRecordWire }
  | { event: 'command'; data: CommandWire }
  | { event: 'alert'; data: AlertWire }
  | { event: 'image'; data: ImageLiveEventWire };

/** An event stream of the live routes; failures before the stream starts are ApiErrors. */
export function liveEvents<P extends string>(
  t: Transport,
  route: ClientRoute<P>,
  params: PathParams<P>,
  options: { lastEventId?: string | number; signal?: AbortSignal },
): AsyncIterable<LiveEvent> {
  return {
    async *[Symbol.asyncIterator]() {
      const headers: Record<string, string> = options.lastEventId === undefined ? {} : { 'Last-Event-ID': String(options.lastEventId) };
      const res = await t.raw(route, { params, headers, signal: options.signal }, 'text/event-stream');
      if (!res.body) return;
      for await (const message of readSse(res.body)) {
        if (message.event === 'uplink') yield { event: 'uplink', id: message.id ?? '', data: JSON.parse(message.data) as UplinkRecordWire };
        else if (message.event === 'command') yield { event: 'command', data: JSON.parse(message.data) as CommandWire };
        else if (message.event === 'alert') yield { event: 'alert', data: JSON.parse(message.data) as AlertWire };
        else if (message.event === 'image') yield { event: 'image', data: JSON.parse(message.data) as ImageLiveEventWire };
      }
    },
  };
}
