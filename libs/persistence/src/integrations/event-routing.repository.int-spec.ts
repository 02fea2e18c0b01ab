import { Client } from 'pg';
import { type SuiteDatabase, suiteDatabase } from '../testing/suite-database';
import { UNROUTED_EVENTS_SQL } from './event-routing.repository';

/**
 * The router's pick of events, on the pass's database (embedded, then PostgreSQL) with just the
 * columns it reads: the order a device's uplinks are judged in, and which events a limited batch
 * takes, are the ids' numeric order.
 */
describe('UNROUTED_EVENTS_SQL', () => {
  let suite: SuiteDatabase;
  let db: Client;

  beforeAll(async () => {
    suite = await suiteDatabase('routing', { empty: true, maxConnections: 1 });
    db = new Client({ connectionString: suite.url });
    await db.connect();
    await db.query(`
      CREATE TABLE events (id bigserial PRIMARY KEY, kind text NOT NULL, device_id integer NOT NULL, ref bigint NOT NULL, status text,
                           created_at timestamptz NOT NULL DEFAULT now(), routed_at timestamptz);
      SELECT setval('events_id_seq', 996);
      INSERT INTO events (kind, device_id, ref) SELECT 'uplink', 1, n FROM generate_series(7, 10) AS n;
      UPDATE events SET routed_at = now() WHERE id = 997;`);
  });
  afterAll(async () => {
    await db?.end();
    await suite?.stop();
  });

  const pick = async (limit: number) => (await db.query<{ id: string; ref: string }>(UNROUTED_EVENTS_SQL, [limit])).rows;

  it('takes the events in numeric id order across a power of ten (as text, 1000 came before 999)', async () => {
    expect((await pick(10)).map((e) => [e.id, e.ref])).toEqual([
      ['998', '8'],
      ['999', '9'],
      ['1000', '10'],
    ]);
  });

  it('takes the oldest when more are waiting than a batch holds', async () => {
    expect((await pick(2)).map((e) => e.id)).toEqual(['998', '999']);
  });
});
