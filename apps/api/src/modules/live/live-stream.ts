import type { Logger } from '@nestjs/common';
import type { DeviceRef } from '@dts/domain';
import type { UplinkRow } from '@dts/persistence';
import { type LiveClient, uplinkEvent, writeTo } from './live-hub';

/** A comment line this often keeps proxies (nginx's proxy_read_timeout) from closing a quiet stream. */
export const LIVE_HEARTBEAT_MS = 15_000;
/** How long an EventSource waits before reconnecting (the `retry:` field). */
const RETRY_MS = 3_000;

/** A Last-Event-ID header as an uplink uid, or null when absent or not one. */
export const parseLastEventId = (value: string | undefined) => (value !== undefined && /^\d{1,19}$/.test(value.trim()) ? BigInt(value.trim()) : null);

/** Opens the event stream (the reconnect delay, a comment naming the feed) and keeps it alive with heartbeats. */
export function startStream(client: LiveClient, comment: string): void {
  client.sink.start(`retry: ${RETRY_MS}\n: ${comment}\n\n`);
  client.heartbeat = setInterval(() => {
    if (!client.closed) client.sink.write(': heartbeat\n\n');
  }, LIVE_HEARTBEAT_MS);
}

/** The uplinks after the client's Last-Event-ID up to where its hubs stood when it joined, then what they sent meanwhile. */
export async function replay(client: LiveClient, rows: AsyncIterable<UplinkRow[]>, deviceOf: (row: object) => DeviceRef, logger: Logger): Promise<void> {
  try {
    for await (const batch of rows) {
      if (client.closed) return;
      if (!client.sink.write(batch.map((row) => uplinkEvent(row, deviceOf(row))).join(''))) await client.sink.writable();
    }
  } catch (error) {
    logger.warn(`live replay failed: ${error instanceof Error ? error.message : String(error)}`);
    client.sink.destroy();
    return;
  }
  const held = client.held ?? [];
  client.held = null;
  for (const text of held) writeTo(client, text);
}
