import { createServer, type Server } from 'node:net';
import { suiteDatabase } from '../testing/suite-database';
import { QueryTimeoutError, ReadDatabase } from './read-database';

/** ReadDatabase on both databases: the time bound of a user's read, and a replica that is gone. */
describe('ReadDatabase', () => {
  let url: string;
  let embedded: boolean;
  let stop: () => Promise<void>;

  beforeAll(async () => {
    const db = await suiteDatabase('reads_bound', { maxConnections: 12 });
    ({ url, embedded, stop } = db);
  });
  afterAll(() => stop?.());

  it('ends a read past the statement timeout with QueryTimeoutError, and the next read is served', async () => {
    const reads = new ReadDatabase({ primaryUrl: url, replicaUrl: null, poolSize: 2, statementTimeoutMs: 300, embedded });
    try {
      const started = Date.now();
      // The slow read under test, not a wait: 1 s is past the 300 ms bound with room to spare, and
      // short, since the embedded database finishes it before it serves the next read.
      const error = await reads.query('SELECT pg_sleep(1)').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(QueryTimeoutError);
      // PostgreSQL cancels the statement at 300 ms; the embedded database cannot, and the caller
      // stops waiting at the same bound (its connection is closed).
      expect(Date.now() - started).toBeLessThan(2_000);
      const again = Date.now();
      expect(await reads.query<{ n: number }>('SELECT 1 AS n')).toEqual([{ n: 1 }]);
      // PostgreSQL: at once. Embedded: once the one backend has finished the abandoned sleep.
      expect(Date.now() - again).toBeLessThan(embedded ? 2_000 : 1_000);
    } finally {
      await reads.onApplicationShutdown();
    }
  });

  it('prepares a named read once per connection on PostgreSQL and answers it with each call’s values', async () => {
    const reads = new ReadDatabase({ primaryUrl: url, replicaUrl: null, poolSize: 1, statementTimeoutMs: 2_000, embedded });
    try {
      const sql = `SELECT $1::int * 2 AS n, (SELECT count(*)::int FROM pg_prepared_statements WHERE name = 'spec_double') AS prepared`;
      const first = await reads.query<{ n: number; prepared: number }>(sql, [2], 'spec_double');
      const second = await reads.query<{ n: number; prepared: number }>(sql, [21], 'spec_double');
      expect([first[0]!.n, second[0]!.n]).toEqual([4, 42]);
      // One connection: prepared by the first call, used by the second. The embedded database's
      // connections share one session, where a name would collide: there it goes unnamed.
      expect(second[0]!.prepared).toBe(embedded ? 0 : 1);
    } finally {
      await reads.onApplicationShutdown();
    }
  });

  it('serves a read whose answer came while this process stood still past the bound (not a timeout)', async () => {
    const reads = new ReadDatabase({ primaryUrl: url, replicaUrl: null, poolSize: 2, statementTimeoutMs: 300, embedded });
    try {
      await reads.query('SELECT 1'); // a connection open before the read under test
      const answer = reads.query<{ n: number }>('SELECT 2 AS n FROM pg_sleep(0.1)').catch((e: unknown) => e);
      await new Promise((resolve) => setImmediate(resolve)); // the read is sent, its bound armed
      // The loop stands still 1 s while the answer comes, from a setImmediate callback: the timers
      // run first after it, as they did when a stream's reader held the loop in CI and pg's
      // query_timeout turned answered reads into timeouts (cut streams, "aborted").
      await new Promise<void>((resolve) =>
        setImmediate(() => {
          const until = performance.now() + 1_000;
          while (performance.now() < until) {
            // standing still
          }
          resolve();
        }),
      );
      expect(await answer).toEqual([{ n: 2 }]);
    } finally {
      await reads.onApplicationShutdown();
    }
  });

  it('reads from the primary at once when the replica does not answer, and leaves the replica alone a while', async () => {
    // A "replica" that accepts connections and never speaks: the connect timeout ends the wait.
    const silent: Server = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as { port: number }).port;
    const reads = new ReadDatabase({
      primaryUrl: url,
      replicaUrl: `postgres://postgres@127.0.0.1:${port}/postgres`,
      poolSize: 2,
      statementTimeoutMs: 5_000,
      embedded: false,
    });
    try {
      expect(reads.onReplica).toBe(true);
      const started = Date.now();
      expect(await reads.query<{ n: number }>('SELECT 2 AS n')).toEqual([{ n: 2 }]);
      expect(Date.now() - started).toBeLessThan(3_000);
      expect(reads.onReplica).toBe(false);
      const next = Date.now();
      await reads.query('SELECT 3');
      expect(Date.now() - next).toBeLessThan(500);
    } finally {
      await reads.onApplicationShutdown();
      silent.close();
    }
  });
});
