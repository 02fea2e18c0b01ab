import { readSse, type SseMessage } from './sse';

/** A body that delivers the given chunks (strings as UTF-8, or raw bytes) one read at a time. */
function stream(...chunks: (string | Uint8Array)[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const c of chunks) controller.enqueue(typeof c === 'string' ? encoder.encode(c) : c);
      controller.close();
    },
  });
}

async function all(body: ReadableStream<Uint8Array>): Promise<SseMessage[]> {
  const events: SseMessage[] = [];
  for await (const e of readSse(body)) events.push(e);
  return events;
}

/** The same stream with every line end written as `eol`. */
const withEol = (text: string, eol: string) => text.replace(/\n/g, eol);

const SAMPLE = 'retry: 3000\n: live feed\n\nid: 7\nevent: uplink\ndata: {"a":1}\n\nevent: command\ndata: first\ndata:second\ndata\n\n';
const SAMPLE_EVENTS: SseMessage[] = [
  { event: 'uplink', data: '{"a":1}', id: '7' },
  { event: 'command', data: 'first\nsecond\n', id: '7' },
];

describe('readSse line ends', () => {
  it.each([
    ['LF', '\n'],
    ['CRLF', '\r\n'],
    ['CR only', '\r'],
  ])('%s: the same events', async (_name, eol) => {
    expect(await all(stream(withEol(SAMPLE, eol)))).toEqual(SAMPLE_EVENTS);
  });

  it.each([
    ['LF', '\n'],
    ['CRLF', '\r\n'],
    ['CR only', '\r'],
  ])('%s: the same events when every character arrives in a chunk of its own', async (_name, eol) => {
    expect(await all(stream(...withEol(SAMPLE, eol).split('')))).toEqual(SAMPLE_EVENTS);
  });

  it('a CRLF split between two chunks is one line end, not a blank line that dispatches early', async () => {
    expect(await all(stream('data: a\r', '\ndata: b\r', '\n\r', '\n'))).toEqual([{ event: 'message', data: 'a\nb', id: null }]);
  });

  it('mixed line ends in one stream', async () => {
    expect(await all(stream('data: a\r\ndata: b\rdata: c\n\r\nevent: x\rdata: d\r\r'))).toEqual([
      { event: 'message', data: 'a\nb\nc', id: null },
      { event: 'x', data: 'd', id: null },
    ]);
  });

  it('a chunk split inside a line and inside a multi-byte character', async () => {
    const bytes = new TextEncoder().encode('event: cafédata\ndata: “quoted”\n\n');
    const cut = bytes.indexOf(0xc3) + 1; // between the two bytes of é
    expect(await all(stream(bytes.subarray(0, cut), bytes.subarray(cut, cut + 9), bytes.subarray(cut + 9)))).toEqual([
      { event: 'cafédata', data: '“quoted”', id: null },
    ]);
  });
});

describe('readSse fields', () => {
  it('skips comments (heartbeats), retry and unknown fields; a block without data dispatches nothing', async () => {
    expect(await all(stream(': heartbeat\n\n:\n\nretry: 10\nfoo: bar\n\nevent: lonely\n\ndata: x\nretry: nope\n\n'))).toEqual([
      { event: 'message', data: 'x', id: null },
    ]);
  });

  it('keeps the last id across events, also one set by a block without data; an empty id clears it, one with NUL is ignored', async () => {
    const events = await all(stream('id: 1\ndata: a\n\ndata: b\n\nid: 2\n\ndata: c\n\nid\ndata: d\n\nid: 3\u0000\ndata: e\n\n'));
    expect(events.map((e) => [e.data, e.id])).toEqual([
      ['a', '1'],
      ['b', '1'],
      ['c', '2'],
      ['d', ''],
      ['e', ''],
    ]);
  });

  it('multi-line data joins with LF, keeps an empty line, and strips one space after the colon only', async () => {
    expect(await all(stream('data:  two spaces\ndata:\ndata:none\n\n'))).toEqual([{ event: 'message', data: ' two spaces\n\nnone', id: null }]);
  });

  it('drops an event the stream ends before its blank line, and a leading BOM', async () => {
    expect(await all(stream('\uFEFFdata: kept\n\ndata: cut off\n'))).toEqual([{ event: 'message', data: 'kept', id: null }]);
  });

  it('leaving the loop early cancels the body', async () => {
    let cancelled = false;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('data: 1\n\ndata: 2\n\n'));
      },
      cancel() {
        cancelled = true;
      },
    });
    for await (const e of readSse(body)) {
      expect(e.data).toBe('1');
      break;
    }
    expect(cancelled).toBe(true);
  });
});
