import type { PGlite } from '@electric-sql/pglite';
import { createServer, type Server, type Socket } from 'node:net';

const SSL_REQUEST = 80877103;
const GSS_REQUEST = 80877104;
const CANCEL_REQUEST = 80877102;

/** Frontend messages after which the backend answers ReadyForQuery: a unit that must run whole. */
const UNIT_END = new Set(['S', 'Q']);
const TERMINATE = 'X';

interface Unit {
  connection: Connection;
  bytes: Buffer;
}

interface Connection {
  id: number;
  socket: Socket;
  started: boolean;
  buffer: Buffer;
  pending: Buffer[];
  closed: boolean;
  /** Channels this connection LISTENs on. */
  channels: Set<string>;
  /** The start of a backend message split across output chunks. */
  carry: Buffer;
}

const NOTIFICATION = 0x41; // 'A'
const LISTEN = /^\s*(UN)?LISTEN\s+(?:"([^"]+)"|([A-Za-z_][A-Za-z0-9_$]*)|(\*))\s*;?\s*$/i;

/**
 * Serves one PGlite over the PostgreSQL wire protocol to many connections.
 *
 * PGlite is a single backend session, so connections must take turns. pglite-socket's server
 * interleaves them message by message, which lets one connection's Bind meet another's Parse of
 * the unnamed statement: queries then get each other's results (seen under BullMQ's polling). Here
 * the unit of turn-taking is everything up to a Sync or simple Query, and a connection that leaves a
 * transaction open keeps the backend until it ends it (or disconnects, which rolls it back).
 *
 * LISTEN/NOTIFY: the one session emits a notification into the output of whichever connection
 * ran the NOTIFY. The server takes such messages out of that output and hands them to the
 * connections that LISTEN on the channel, as a real server would (BullMQ's workers wake by them).
 */
export class PgliteWireServer {
  private readonly server: Server;
  private readonly connections = new Set<Connection>();
  private readonly sockets = new Set<Socket>();
  private readonly queue: Unit[] = [];
  private transactionOwner: Connection | null = null;
  private running = false;
  private nextId = 1;

  constructor(
    private readonly db: PGlite,
    private readonly maxConnections: number,
  ) {
    this.server = createServer((socket) => this.accept(socket));
  }

  listen(host: string, port: number): Promise<number> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, host, () => resolve((this.server.address() as { port: number }).port));
    });
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private accept(socket: Socket): void {
    this.sockets.add(socket);
    socket.once('close', () => this.sockets.delete(socket));
    if (this.connections.size >= this.maxConnections) {
      socket.end(errorResponse('53300', 'too many connections to the embedded database'));
      return;
    }
    socket.setNoDelay(true);
    const c: Connection = {
      id: this.nextId++,
      socket,
      started: false,
      buffer: Buffer.alloc(0),
      pending: [],
      closed: false,
      channels: new Set(),
      carry: Buffer.alloc(0),
    };
    this.connections.add(c);
    socket.on('data', (chunk) => this.receive(c, chunk));
    socket.on('error', () => this.drop(c));
    socket.on('close', () => this.drop(c));
  }

  private receive(c: Connection, chunk: Buffer): void {
    c.buffer = c.buffer.length ? Buffer.concat([c.buffer, chunk]) : chunk;
    for (;;) {
      if (!c.started) {
        if (c.buffer.length < 8) return;
        const length = c.buffer.readInt32BE(0);
        if (c.buffer.length < length) return;
        const code = c.buffer.readInt32BE(4);
        const message = c.buffer.subarray(0, length);
        c.buffer = c.buffer.subarray(length);
        if (code === SSL_REQUEST || code === GSS_REQUEST) {
          c.socket.write('N');
        } else if (code === CANCEL_REQUEST) {
          c.socket.end();
          return;
        } else {
          c.started = true;
          this.submit(c, Buffer.from(message));
        }
        continue;
      }
      if (c.buffer.length < 5) return;
      const length = 1 + c.buffer.readInt32BE(1);
      if (c.buffer.length < length) return;
      // At least five bytes are buffered (checked above): the type byte is there.
      const type = String.fromCharCode(c.buffer.readUInt8(0));
      const message = Buffer.from(c.buffer.subarray(0, length));
      c.buffer = c.buffer.subarray(length);
      if (type === TERMINATE) {
        c.socket.end();
        return;
      }
      if (type === 'Q') this.trackListen(c, message);
      c.pending.push(message);
      if (UNIT_END.has(type)) {
        const unit = Buffer.concat(c.pending);
        c.pending = [];
        this.submit(c, unit);
      }
    }
  }

  private submit(connection: Connection, bytes: Buffer): void {
    this.queue.push({ connection, bytes });
    void this.run();
  }

  /** Runs queued units one at a time; while a transaction is open only its owner's units run. */
  private async run(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      for (;;) {
        const index = this.transactionOwner ? this.queue.findIndex((u) => u.connection === this.transactionOwner) : 0;
        if (index < 0 || this.queue.length === 0) return;
        const [unit] = this.queue.splice(index, 1);
        if (!unit || unit.connection.closed) continue;
        await this.db
          .runExclusive(() =>
            this.db.execProtocolRawStream(new Uint8Array(unit.bytes), {
              onRawData: (data: Uint8Array) => {
                if (!unit.connection.closed && data.length > 0) this.route(unit.connection, data);
              },
            }),
          )
          .catch(() => unit.connection.socket.destroy());
        this.transactionOwner = (this.db as unknown as { isInTransaction(): boolean }).isInTransaction() ? unit.connection : null;
      }
    } finally {
      this.running = false;
    }
  }

  /** Remembers what a simple query LISTENs to or UNLISTENs from. */
  private trackListen(c: Connection, message: Buffer): void {
    // BullMQ sends its LISTEN from a script file, comments first.
    const text = message
      .subarray(5, message.length - 1)
      .toString('utf8')
      .replace(/--[^\n]*/g, '')
      .replace(/\/\*[\s\S]*?\*\//g, '');
    const m = LISTEN.exec(text);
    if (!m) return;
    const channel = m[2] ?? m[3]?.toLowerCase();
    if (!m[1]) {
      if (channel) c.channels.add(channel);
    } else if (m[4]) c.channels.clear();
    else if (channel) c.channels.delete(channel);
  }

  /** Writes a unit's output to its connection, minus notifications, which go to their listeners. */
  private route(c: Connection, data: Uint8Array): void {
    const buf = c.carry.length > 0 ? Buffer.concat([c.carry, data]) : Buffer.from(data);
    const out: Buffer[] = [];
    let offset = 0;
    let from = 0;
    while (buf.length - offset >= 5) {
      const total = 1 + buf.readInt32BE(offset + 1);
      if (buf.length - offset < total) break;
      if (buf[offset] === NOTIFICATION) {
        if (offset > from) out.push(buf.subarray(from, offset));
        this.notify(buf.subarray(offset, offset + total));
        from = offset + total;
      }
      offset += total;
    }
    if (offset > from) out.push(buf.subarray(from, offset));
    c.carry = Buffer.from(buf.subarray(offset));
    const [only, ...more] = out;
    if (only) c.socket.write(more.length === 0 ? only : Buffer.concat(out));
  }

  private notify(message: Buffer): void {
    const end = message.indexOf(0, 9);
    const channel = message.subarray(9, end).toString('utf8');
    const copy = Buffer.from(message);
    for (const listener of this.connections) if (!listener.closed && listener.channels.has(channel)) listener.socket.write(copy);
  }

  private drop(c: Connection): void {
    if (c.closed) return;
    c.closed = true;
    this.connections.delete(c);
    for (let i = this.queue.length - 1; i >= 0; i--) if (this.queue[i]?.connection === c) this.queue.splice(i, 1);
    if (this.transactionOwner === c) {
      // The client went away inside a transaction: end it, or the backend stays held forever.
      this.transactionOwner = null;
      void this.db.exec('ROLLBACK').finally(() => void this.run());
    }
  }
}

/** A FATAL ErrorResponse, for refusing a connection. */
function errorResponse(code: string, message: string): Buffer {
  const fields = Buffer.concat([Buffer.from('SFATAL\0'), Buffer.from(`C${code}\0`), Buffer.from(`M${message}\0`), Buffer.from([0])]);
  const header = Buffer.alloc(5);
  header.write('E', 0);
  header.writeInt32BE(4 + fields.length, 1);
  return Buffer.concat([header, fields]);
}
