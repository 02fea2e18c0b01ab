import { DataSource } from 'typeorm';
import { dataSourceOptions, runMigrations } from '../data-source';
import { suiteDatabase } from '../testing/suite-database';
import { type ClaimedLane, DeliveriesRepository } from './deliveries.repository';

/**
 * The lanes' claim, lease and release in the database (docs/architecture.md "Lanes, leases and fairness"): shares
 * per account, the accounts holding fewest first, a held lane never made due beside its holder,
 * and a redelivery asked for during a failing attempt that neither the failure's record nor the
 * lane's release can overwrite.
 */
describe('DeliveriesRepository: lanes shared per account, redeliveries kept', () => {
  let ds: DataSource;
  let stop: () => Promise<void>;
  let repo: DeliveriesRepository;
  const LEASE_MS = 30_000;
  const none = new Map<number, number>();

  let account = 0;
  let device = 0;
  /** An account with `integrations` webhooks; returns their uids. */
  const newAccount = async (integrations: number): Promise<{ id: number; hooks: number[] }> => {
    const name = `acct${++account}`;
    const [row] = await ds.query(
      `INSERT INTO accounts (username, username_key, email, email_key, password_hash, expires_on, max_devices)
       VALUES ($1, $1, $1 || '@example.org', $1 || '@example.org', 'x', '2999-01-01', 1000) RETURNING id`,
      [name],
    );
    const hooks: number[] = [];
    for (let i = 0; i < integrations; i++) {
      const [hook] = await ds.query(
        `INSERT INTO integrations (account_id, name, kind, url, events) VALUES ($1, 'h', 'webhook', 'https://example.org/h', '{uplink}') RETURNING uid`,
        [row.id],
      );
      hooks.push(hook.uid);
    }
    return { id: row.id, hooks };
  };
  const newDevice = async (owner: number): Promise<number> => {
    const eui = (++device).toString(16).toUpperCase().padStart(16, '0');
    const [row] = await ds.query(`INSERT INTO devices (eui, owner_id, label) VALUES ($1, $2, 'd') RETURNING uid`, [eui, owner]);
    return row.uid;
  };
  /** A pending delivery of a new event on the lane, the lane due `dueInMs` from now (negative: already due). */
  const queue = async (hook: number, dev: number, dueInMs = -1_000): Promise<string> => {
    const [event] = await ds.query(
      `INSERT INTO events (kind, device_id, ref, routed_at, body) VALUES ('uplink', $1, 1, now(), '{}') RETURNING id::text AS id`,
      [dev],
    );
    const [delivery] = await ds.query(`INSERT INTO integration_deliveries (integration_id, event_id, device_id) VALUES ($1, $2, $3) RETURNING id::text AS id`, [
      hook,
      event.id,
      dev,
    ]);
    await ds.query(
      `INSERT INTO integration_lanes (integration_id, device_id, account_id, next_at, added)
       SELECT $1, $2, account_id, now() + $3 * interval '1 millisecond', 1 FROM integrations WHERE uid = $1
       ON CONFLICT (integration_id, device_id) DO UPDATE SET added = integration_lanes.added + 1`,
      [hook, dev, dueInMs],
    );
    return delivery.id;
  };
  const lane = async (hook: number, dev: number) =>
    (
      await ds.query(
        `SELECT next_at <= now() AS due, next_at IS NULL AS idle, held_until > now() AS held, next_at > now() + interval '10 minutes' AS backing_off
         FROM integration_lanes WHERE integration_id = $1 AND device_id = $2`,
        [hook, dev],
      )
    )[0] as { due: boolean; idle: boolean; held: boolean | null; backing_off: boolean };
  const delivery = async (id: string) =>
    (await ds.query(`SELECT state, attempts, next_attempt_at <= now() AS due FROM integration_deliveries WHERE id = $1`, [id]))[0] as {
      state: string;
      attempts: number;
      due: boolean;
    };
  const byAccount = (claimed: ClaimedLane[]) => {
    const counts = new Map<number, number>();
    for (const c of claimed) counts.set(c.account_id, (counts.get(c.account_id) ?? 0) + 1);
    return counts;
  };
  const inAnHour = () => new Date(Date.now() + 3_600_000);

  beforeAll(async () => {
    const db = await suiteDatabase('dts_lanes');
    stop = db.stop;
    await runMigrations({ url: db.url, poolSize: 1 });
    ds = await new DataSource(dataSourceOptions({ url: db.url, poolSize: 4 })).initialize();
    repo = new DeliveriesRepository(ds);
  });
  afterAll(async () => {
    await ds?.destroy();
    await stop?.();
  });
  afterEach(async () => {
    await ds.query('DELETE FROM integration_lanes');
    await ds.query('DELETE FROM integration_deliveries');
  });

  it('gives one account at most its share, whatever its lanes and integrations, and skips lanes not due', async () => {
    const hog = await newAccount(3);
    const other = await newAccount(1);
    const idle = await newAccount(1);
    for (const hook of hog.hooks) for (let i = 0; i < 10; i++) await queue(hook, await newDevice(hog.id), -60_000 + i);
    // Due after the hog's lanes: oldest-first would give every free lane to the hog.
    await queue(other.hooks[0]!, await newDevice(other.id));
    for (let i = 0; i < 5; i++) await queue(idle.hooks[0]!, await newDevice(idle.id), 3_600_000);

    const claimed = await repo.claimLanes(16, LEASE_MS, { perAccount: 4, holds: none });
    expect(byAccount(claimed)).toEqual(
      new Map([
        [hog.id, 4],
        [other.id, 1],
      ]),
    );
    // Counting what the worker holds already: the hog's share is spent.
    const more = await repo.claimLanes(16, LEASE_MS, { perAccount: 4, holds: new Map([[hog.id, 4]]) });
    expect(more).toEqual([]);
    const after = await repo.claimLanes(16, LEASE_MS, { perAccount: 4, holds: new Map([[hog.id, 1]]) });
    expect(byAccount(after)).toEqual(new Map([[hog.id, 3]]));
  });

  it('serves the accounts holding fewest lanes first', async () => {
    const busy = await newAccount(1);
    const fresh = await newAccount(1);
    for (let i = 0; i < 3; i++) await queue(busy.hooks[0]!, await newDevice(busy.id), -60_000);
    await queue(fresh.hooks[0]!, await newDevice(fresh.id));
    const [first] = await repo.claimLanes(1, LEASE_MS, { perAccount: 4, holds: new Map([[busy.id, 2]]) });
    expect(first?.account_id).toBe(fresh.id);
  });

  it('never gives one lane to two claims at once', async () => {
    const a = await newAccount(2);
    for (const hook of a.hooks) for (let i = 0; i < 20; i++) await queue(hook, await newDevice(a.id));
    const claims = await Promise.all(Array.from({ length: 4 }, () => repo.claimLanes(8, LEASE_MS, { perAccount: 40, holds: none })));
    const keys = claims.flat().map((c) => `${c.integration_id}/${c.device_id}`);
    expect(new Set(keys).size).toBe(keys.length);
    // Held: not claimable again until released or the lease ends.
    expect(keys.length).toBe(32);
    expect(await repo.claimLanes(40, LEASE_MS, { perAccount: 40, holds: none })).toHaveLength(40 - 32);
  });

  it('leaves a held lane to its holder on redelivery, and the failed attempt’s record and release keep the redelivery due now', async () => {
    const a = await newAccount(1);
    const dev = await newDevice(a.id);
    const hook = a.hooks[0]!;
    const id = await queue(hook, dev);
    const [held] = await repo.claimLanes(1, LEASE_MS, { perAccount: 4, holds: none });
    const [outgoing] = await repo.pending(held!, 10);
    held!.redelivered = outgoing!.lane_redelivered;

    // Asked for while the attempt is in flight: not due beside the holder.
    expect(await repo.redeliver(hook, id)).toMatchObject({ state: 'pending' });
    expect(await lane(hook, dev)).toMatchObject({ due: false, held: true });
    expect(await repo.claimLanes(1, LEASE_MS, { perAccount: 4, holds: none })).toEqual([]);

    // The attempt fails, its backoff an hour: the redelivery still stands.
    expect(await repo.attemptFailed({ id, status: 503, latencyMs: 5, error: 'HTTP 503' }, inAnHour(), outgoing!.redelivered)).toEqual({ redelivered: true });
    expect(await delivery(id)).toEqual({ state: 'pending', attempts: 1, due: true });
    await repo.release(held!, { retryAt: inAnHour(), more: false });
    expect(await lane(hook, dev)).toMatchObject({ due: true, held: null });

    // The redelivery's own attempt, failing, backs off as any failure does.
    const [again] = await repo.claimLanes(1, LEASE_MS, { perAccount: 4, holds: none });
    const [resent] = await repo.pending(again!, 10);
    again!.redelivered = resent!.lane_redelivered;
    expect(await repo.attemptFailed({ id, status: 503, latencyMs: 5, error: 'HTTP 503' }, inAnHour(), resent!.redelivered)).toEqual({ redelivered: false });
    expect(await delivery(id)).toEqual({ state: 'pending', attempts: 2, due: false });
    await repo.release(again!, { retryAt: inAnHour(), more: false });
    expect(await lane(hook, dev)).toMatchObject({ backing_off: true });
  });

  it('keeps a redelivery asked for during the last attempt of a delivery given up: pending, due now', async () => {
    const a = await newAccount(1);
    const dev = await newDevice(a.id);
    const id = await queue(a.hooks[0]!, dev);
    const [held] = await repo.claimLanes(1, LEASE_MS, { perAccount: 4, holds: none });
    const [outgoing] = await repo.pending(held!, 10);
    await repo.redeliver(a.hooks[0]!, id);
    expect(await repo.attemptFailed({ id, status: null, latencyMs: 5, error: 'timed out' }, null, outgoing!.redelivered)).toEqual({ redelivered: true });
    expect(await delivery(id)).toEqual({ state: 'pending', attempts: 1, due: true });
  });

  it('does not let new events cut a failure’s backoff', async () => {
    const a = await newAccount(1);
    const dev = await newDevice(a.id);
    const hook = a.hooks[0]!;
    const id = await queue(hook, dev);
    const [held] = await repo.claimLanes(1, LEASE_MS, { perAccount: 4, holds: none });
    const [outgoing] = await repo.pending(held!, 10);
    held!.redelivered = outgoing!.lane_redelivered;
    await queue(hook, dev);
    expect(await repo.attemptFailed({ id, status: 503, latencyMs: 5, error: 'HTTP 503' }, inAnHour(), outgoing!.redelivered)).toEqual({ redelivered: false });
    await repo.release(held!, { retryAt: inAnHour(), more: false });
    expect(await lane(hook, dev)).toMatchObject({ backing_off: true, held: null });
  });

  it('makes a lane in backoff due at once on redelivery', async () => {
    const a = await newAccount(1);
    const dev = await newDevice(a.id);
    const id = await queue(a.hooks[0]!, dev, 3_600_000);
    await repo.redeliver(a.hooks[0]!, id);
    expect(await lane(a.hooks[0]!, dev)).toMatchObject({ due: true });
  });

  it('ignores the release of a claim whose lease lapsed and was taken over', async () => {
    const a = await newAccount(1);
    const dev = await newDevice(a.id);
    const hook = a.hooks[0]!;
    await queue(hook, dev);
    const [stale] = await repo.claimLanes(1, 1, { perAccount: 4, holds: none });
    await ds.query(`UPDATE integration_lanes SET next_at = now() - interval '1 second', held_until = now() - interval '1 second'`);
    const [current] = await repo.claimLanes(1, LEASE_MS, { perAccount: 4, holds: none });
    expect(current?.lease).not.toBe(stale?.lease);
    await repo.release(stale!, { retryAt: null, more: false });
    expect(await lane(hook, dev)).toMatchObject({ held: true, due: false });
    await repo.release(current!, { retryAt: null, more: false });
    expect(await lane(hook, dev)).toMatchObject({ held: null, idle: true });
  });
});
