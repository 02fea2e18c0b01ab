import { createParser, type EventSourceMessage } from 'eventsource-parser';

/** One Server-Sent Events message (WHATWG HTML §9.2): `event` defaults to `message`. */
export interface SseMessage {
  event: string;
  data: string;
  /** The last `id:` seen on the stream so far (what a reconnect sends as Last-Event-ID). */
  id: string | null;
}

/**
 * Parses an event stream as it arrives. Leaving the loop early (break, return, throw) cancels the
 * body, which closes the connection. The line grammar (LF, CRLF and CR-only line ends, a CRLF
 * split across chunks, comments, `retry`, a leading BOM) is eventsource-parser's; this adds the
 * stream's last event id, which the standard keeps across events and the parser does not.
 */
export async function* readSse(body: ReadableStream<Uint8Array>): AsyncGenerator<SseMessage> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let lastId: string | null = null;
  let ready: SseMessage[] = [];
  const parser = createParser({
    // Called as an event is dispatched, before onEvent, also for a block with no data.
    onId: (id) => (lastId = id),
    onEvent: (e: EventSourceMessage) => ready.push({ event: e.event ?? 'message', data: e.data, id: lastId }),
  });
  try {
    for (;;) {
      const { value, done } = await reader.read();
      // An event not closed by a blank line when the stream ends is dropped, as the standard says.
      if (done) return;
      parser.feed(decoder.decode(value, { stream: true }));
      const batch = ready;
      ready = [];
      yield* batch;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}
