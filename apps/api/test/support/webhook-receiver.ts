import type { EventWire } from '@dts/domain';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface Received {
  id: string;
  body: EventWire;
  raw: string;
  headers: IncomingMessage['headers'];
  /** Whether the signature verified with the secret given for the path (standardwebhooks' own verifier). */
  verified: boolean | null;
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
  private readonly answers = new Map<string, (r: Received) => number | 'hang'>();
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

  /** How to answer requests to `path` (default 200). */
  answer(path: string, how: (r: Received) => number | 'hang'): void {
    this.answers.set(path, how);
  }

  at(path: string): Received[] {
    return this.received.get(path) ?? [];
  }

  /** Waits until `path` has received `n` requests that were answered 2xx (or any, counting all). */
  async waitFor(path: string, predicate: (list: Received[]) => boolean, timeoutMs = 20_000): Promise<Received[]> {
    const until = Date.now() + timeoutMs;
    while (!predicate(this.at(path))) {
      if (Date.now() > until) throw new Error(`timed out waiting at ${path}: ${this.at(path).length} received`);
      await new Promise((r) => setTimeout(r, 25));
    }
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
      const record: Received = { id: String(req.headers['webhook-id']), body, raw, headers: req.headers, verified };
      this.attempts.set(record.id, (this.attempts.get(record.id) ?? 0) + 1);
      const status = this.answers.get(path)?.(record) ?? 200;
      if (status === 'hang') return;
      if (status >= 200 && status < 300) {
        const list = this.received.get(path) ?? [];
        list.push(record);
        this.received.set(path, list);
      }
      res.writeHead(status, { 'Content-Type': 'text/plain' }).end(status >= 300 ? 'receiver down on purpose' : 'ok');
    });
  }
}
