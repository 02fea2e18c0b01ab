import type { EventWire } from '@dts/domain';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { eventually } from '@dts/platform';

export interface Received {
  id: string;
  body: EventWire;
  raw: string;
  headers: IncomingMessage['headers'];
  /** Whether the signature verified with the secret given for the path (standardwebhooks' own verifier). */
  verified: boolean | null;
  /** When the request's body had arrived (Date.now()). */
  receivedAt: number;
}

/**
 * A local webhook target: records what it receives per path, verifies Standard Webhooks signatures
 * with the reference library, and answers as told — 200, or a status on purpose (down for a while).
 */
export class WebhookReceiver {
  readonly received = new Map<string, Received[]>();
  /** Every request by its `webhook-id`, however it was answered (or not). */
  readonly attempts = new Map<string, number>();
  private readonly secrets = new Map<string, string>();
  private readonly answers = new Map<string, (r: Received) => number | 'hang' | Promise<number>>();
  /** Requests answered 'hang' (or still waiting for a deferred answer) whose connection is still open, by path. */
  private readonly held = new Map<string, Set<Received>>();
  /** Requests not answered yet (held or not), by path. */
  private readonly open = new Map<string, Set<Received>>();
  /** Requests received, however answered, by path. */
  readonly requests = new Map<string, number>();
  /** The most requests held open at once, by path. */
  readonly peakHeld = new Map<string, number>();
  /** The most requests in progress at once for one device at a path (one integration's lane): more than 1 is a lane sent twice at once. */
  readonly peakOpenPerDevice = new Map<string, number>();
  /** The most requests held open at once, all paths together. */
  peakHeldAll = 0;
  private server!: Server;
  private readonly sockets = new Set<Socket>();
  url = '';

  async start(): Promise<this> {
    this.server = createServer((req, res) => this.handle(req, res));
    this.server.on('connection', (s) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', () => resolve()));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise((resolve) => this.server.close(resolve));
  }

  /** Verify what arrives at `path` with this secret. */
  secret(path: string, secret: string): void {
    this.secrets.set(path, secret);
  }

  /**
   * How to answer requests to `path` (default 200): a status, 'hang' (the request is read and never
   * answered: a receiver that accepts and goes silent), or a promise of a status (held until it settles).
   */
  answer(path: string, how: (r: Received) => number | 'hang' | Promise<number>): void {
    this.answers.set(path, how);
  }

  at(path: string): Received[] {
    return this.received.get(path) ?? [];
  }

  /** Requests at `path` held unanswered whose connection the sender has not closed yet. */
  heldAt(path: string): Received[] {
    return [...(this.held.get(path) ?? [])];
  }

  /** Waits, polling, until `predicate` holds; throws naming `what` after `timeoutMs`. */
  async until(what: string, predicate: () => boolean, timeoutMs = 20_000): Promise<void> {
    await eventually(predicate, { what, timeoutMs, intervalMs: 10 });
  }

  /** Waits until `path` has received `n` requests that were answered 2xx (or any, counting all). */
  async waitFor(path: string, predicate: (list: Received[]) => boolean, timeoutMs = 20_000): Promise<Received[]> {
    await eventually(
      () => {
        if (!predicate(this.at(path))) throw new Error(`${this.at(path).length} received`);
      },
      { what: `the requests at ${path}`, timeoutMs },
    );
    return this.at(path);
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const path = req.url ?? '/';
      const secret = this.secrets.get(path);
      let verified: boolean | null = null;
      if (secret) {
        try {
          new Webhook(secret).verify(raw, req.headers as Record<string, string>);
          verified = true;
        } catch {
          verified = false;
        }
      }
      let body: EventWire;
      try {
        body = JSON.parse(raw) as EventWire;
      } catch {
        body = {} as EventWire;
      }
      const record: Received = { id: String(req.headers['webhook-id']), body, raw, headers: req.headers, verified, receivedAt: Date.now() };
      this.attempts.set(record.id, (this.attempts.get(record.id) ?? 0) + 1);
      this.requests.set(path, (this.requests.get(path) ?? 0) + 1);
      const open = this.open.get(path) ?? new Set<Received>();
      this.open.set(path, open);
      open.add(record);
      res.on('close', () => open.delete(record));
      const sameDevice = [...open].filter((r) => r.body.devEUI === record.body.devEUI).length;
      this.peakOpenPerDevice.set(path, Math.max(this.peakOpenPerDevice.get(path) ?? 0, sameDevice));
      const how = this.answers.get(path)?.(record) ?? 200;
      if (typeof how === 'number') return this.reply(path, record, res, how);
      this.hold(path, record, res);
      if (how !== 'hang') void how.then((status) => (res.destroyed ? undefined : this.reply(path, record, res, status)));
    });
  }

  /** Counts a request held open until its connection closes (the sender gave up, or the answer went). */
  private hold(path: string, record: Received, res: ServerResponse): void {
    const held = this.held.get(path) ?? new Set<Received>();
    this.held.set(path, held);
    held.add(record);
    this.peakHeld.set(path, Math.max(this.peakHeld.get(path) ?? 0, held.size));
    this.peakHeldAll = Math.max(
      this.peakHeldAll,
      [...this.held.values()].reduce((n, set) => n + set.size, 0),
    );
    res.on('close', () => held.delete(record));
  }

  private reply(path: string, record: Received, res: ServerResponse, status: number): void {
    if (status >= 200 && status < 300) {
      const list = this.received.get(path) ?? [];
      list.push(record);
      this.received.set(path, list);
    }
    res.writeHead(status, { 'Content-Type': 'text/plain' }).end(status >= 300 ? 'receiver down on purpose' : 'ok');
  }
}
