import { eventually } from '@dts/platform';
import { Client, Pool } from 'pg';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataDirInUseError, startEmbeddedPostgres, type EmbeddedPostgres } from './embedded-postgres';

describe('embedded PostgreSQL over the wire', () => {
  let db: EmbeddedPostgres;

  beforeAll(async () => {
    db = await startEmbeddedPostgres({ dataDir: null, maxConnections: 12 });
  });
  afterAll(() => db?.stop());

  it('keeps each connection’s parameterised queries whole under concurrency', async () => {
    const pools = [new Pool({ connectionString: db.url, max: 4 }), new Pool({ connectionString: db.url, max: 4 })];
    try {
      const results = await Promise.all(
        Array.from({ length: 400 }, (_, i) => pools[i % 2]!.query('SELECT $1::int AS n, $2::text AS s', [i, `v${i}`]).then((r) => r.rows[0])),
      );
      results.forEach((row, i) => expect(row).toEqual({ n: i, s: `v${i}` }));
    } finally {
      await Promise.all(pools.map((p) => p.end()));
    }
  });

  it('lets an open transaction finish before other connections run, and rolls back a dropped one', async () => {
    const a = new Client({ connectionString: db.url });
    const b = new Client({ connectionString: db.url });
    await Promise.all([a.connect(), b.connect()]);
    await a.query('CREATE TABLE tx_probe (v int)');
    await a.query('BEGIN');
    await a.query('INSERT INTO tx_probe VALUES (1)');
    const other = b.query('SELECT count(*)::int AS n FROM tx_probe');
    // Real time by nature: a moment for the other read to reach the server while the transaction is
    // open (nothing outside says it has; it must not see the row either way).
    await new Promise((r) => setTimeout(r, 50));
    await a.query('ROLLBACK');
    expect((await other).rows[0].n).toBe(0);

    const c = new Client({ connectionString: db.url });
    await c.connect();
    await c.query('BEGIN');
    await c.query('INSERT INTO tx_probe VALUES (2)');
    await c.end();
    expect((await b.query('SELECT count(*)::int AS n FROM tx_probe')).rows[0].n).toBe(0);
    await Promise.all([a.end(), b.end()]);
  });

  it('delivers NOTIFY to the connections that LISTEN, not to the sender', async () => {
    const [listener, other, sender] = [
      new Client({ connectionString: db.url }),
      new Client({ connectionString: db.url }),
      new Client({ connectionString: db.url }),
    ];
    await Promise.all([listener.connect(), other.connect(), sender.connect()]);
    const got: Record<'listener' | 'other' | 'sender', string[]> = { listener: [], other: [], sender: [] };
    listener.on('notification', (m) => got.listener.push(`${m.channel}:${m.payload}`));
    other.on('notification', (m) => got.other.push(`${m.channel}:${m.payload}`));
    sender.on('notification', (m) => got.sender.push(`${m.channel}:${m.payload}`));
    await listener.query('-- as BullMQ sends it\nLISTEN jobs;\n');
    await other.query('LISTEN "Other"');
    await sender.query("NOTIFY jobs, 'one'");
    await sender.query("SELECT pg_notify('jobs', 'two'), pg_notify('Other', 'three')");
    await listener.query('UNLISTEN jobs');
    await listener.query('LISTEN later');
    await sender.query("NOTIFY jobs, 'four'");
    await sender.query("NOTIFY later, 'five'");
    // A notice reaches an idle connection in its own time, in order: once the listener has the later
    // channel's, a stray 'four' would have come before it.
    await eventually(() => got.other.length > 0 && got.listener.includes('later:five'), {
      what: "the 'later' notice on the listener",
      timeoutMs: 5_000,
      intervalMs: 20,
    });
    expect(got).toEqual({ listener: ['jobs:one', 'jobs:two', 'later:five'], other: ['Other:three'], sender: [] });
    await Promise.all([listener.end(), other.end(), sender.end()]);
  });

  it('runs a slow statement on the database’s thread: the caller’s event loop goes on', async () => {
    const client = new Client({ connectionString: db.url });
    await client.connect();
    try {
      // On the caller's thread this statement held its event loop for its whole run (seconds).
      const started = performance.now();
      const slow = client.query('SELECT count(*)::int AS n FROM generate_series(1, 3000000)');
      let ticks = 0;
      let longestGap = 0;
      let last = performance.now();
      const timer = setInterval(() => {
        const now = performance.now();
        longestGap = Math.max(longestGap, now - last);
        last = now;
        ticks++;
      }, 10);
      const { rows } = await slow.finally(() => clearInterval(timer));
      const took = performance.now() - started;
      expect(rows[0].n).toBe(3_000_000);
      // The statement is only a test when it is slow enough to have shown a stall.
      expect(took).toBeGreaterThan(300);
      // A busy 2-core machine may delay a timer; a stall would delay it by the statement's time.
      expect({ longestGap: longestGap < took / 2 ? 'short' : `${Math.round(longestGap)} of ${Math.round(took)} ms`, ticked: ticks > 10 }).toEqual({
        longestGap: 'short',
        ticked: true,
      });
    } finally {
      await client.end();
    }
  });

  it('refuses connections beyond the limit with an error, not a hang', async () => {
    const clients = Array.from({ length: 12 }, () => new Client({ connectionString: db.url }));
    await Promise.all(clients.map((c) => c.connect()));
    const extra = new Client({ connectionString: db.url });
    await expect(extra.connect()).rejects.toThrow(/too many connections/);
    await Promise.all(clients.map((c) => c.end()));
  });
});

describe('DATA_DIR lock', () => {
  it('refuses a second process on the same data directory, and takes over a dead one’s lock', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dts-lock-'));
    try {
      writeFileSync(join(dir, 'pglite.lock'), String(process.ppid)); // a live process that is not us
      await expect(startEmbeddedPostgres({ dataDir: dir, maxConnections: 2 })).rejects.toBeInstanceOf(DataDirInUseError);
      writeFileSync(join(dir, 'pglite.lock'), '999999999'); // no such process
      const db = await startEmbeddedPostgres({ dataDir: dir, maxConnections: 2 });
      await db.stop();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
