import { type ClientRequest, get, type IncomingMessage } from 'node:http';
import { eventually } from '@dts/platform';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- event data is read member by member
type Json = Record<string, any>;

export interface LiveEvent {
  event: string;
  id: string | null;
  data: Json;
}

/** Long enough for a worker round trip on a loaded machine; a failure shows what did arrive. */
const WAIT_MS = 20_000;

/** A minimal EventSource: parses the stream as it arrives (text/event-stream, LF line ends). */
export class SseClient {
  readonly events: LiveEvent[] = [];
  readonly comments: string[] = [];
  private buffer = '';
  private waiters: (() => void)[] = [];
  /** Resolves when the server ends the stream. */
  readonly ended: Promise<void>;

  private constructor(
    private readonly req: ClientRequest,
    readonly res: IncomingMessage,
  ) {
    res.setEncoding('utf8');
    this.ended = new Promise((resolve) => res.once('end', () => resolve()));
    res.on('data', (chunk: string) => {
      this.buffer += chunk;
      let end: number;
      while ((end = this.buffer.indexOf('\n\n')) >= 0) {
        this.parse(this.buffer.slice(0, end));
        this.buffer = this.buffer.slice(end + 2);
      }
      for (const w of this.waiters) w();
    });
  }

  static open(url: string, headers: Record<string, string>): Promise<SseClient> {
    return new Promise((resolve, reject) => {
      const req = get(url, { headers: { Accept: 'text/event-stream', ...headers } }, (res) => {
        if (res.statusCode !== 200) {
          res.resume();
          reject(new Error(`status ${res.statusCode}`));
          return;
        }
        resolve(new SseClient(req, res));
      });
      req.on('error', reject);
    });
  }

  private parse(block: string): void {
    let event = 'message';
    let id: string | null = null;
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith(':')) this.comments.push(line.slice(1).trim());
      else if (line.startsWith('event: ')) event = line.slice(7);
      else if (line.startsWith('id: ')) id = line.slice(4);
      else if (line.startsWith('data: ')) data.push(line.slice(6));
    }
    if (data.length > 0) this.events.push({ event, id, data: JSON.parse(data.join('\n')) as Json });
  }

  /** Resolves with the first event (from the start of the stream) that matches. */
  waitFor(match: (e: LiveEvent) => boolean, what: string): Promise<LiveEvent> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const found = this.events.find(match);
        if (!found) return false;
        clearTimeout(timer);
        this.waiters = this.waiters.filter((w) => w !== waiter);
        resolve(found);
        return true;
      };
      const waiter = () => void check();
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        reject(
          new Error(`no ${what} within ${WAIT_MS} ms; got ${JSON.stringify(this.events.map((e) => [e.event, e.id, e.data.status ?? e.data.uplink?.devEUI]))}`),
        );
      }, WAIT_MS);
      if (!check()) this.waiters.push(waiter);
    });
  }

  close(): void {
    this.req.destroy();
  }
}

export async function until(condition: () => boolean, what: string): Promise<void> {
  await eventually(condition, { what, timeoutMs: 10_000 });
}
