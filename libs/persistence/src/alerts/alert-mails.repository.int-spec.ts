import { DataSource } from 'typeorm';
import { dataSourceOptions, runMigrations } from '../data-source';
import { hourWindow } from '../mail/mail-counts';
import { suiteDatabase } from '../testing/suite-database';
import {
  type AlertMailDecision,
  type AlertMailLimits,
  AlertMailsRepository,
  alertMailKey,
  decideAlertMails,
  UNVERIFIED_REASON,
} from './alert-mails.repository';

/** 2030-01-01 10:15 UTC: inside the hour 10:00–11:00. */
const T = new Date(Date.UTC(2030, 0, 1, 10, 15));
const HOUR = 3_600_000;
const MINUTE = 60_000;

/**
 * The hourly limits of alert mail, as the database holds them (docs/api.md §19): decisions taken
 * by two "workers" (two connection pools, as two processes have) at once, the per-account limit
 * across an address change, unverified addresses, repeated decisions, and the digests.
 */
describe('AlertMailsRepository', () => {
  let stop: () => Promise<void>;
  let ds: DataSource;
  let other: DataSource;
  let repo: AlertMailsRepository;
  let secondWorker: AlertMailsRepository;
  let n = 0;

  const account = async (verified = true) => {
    const name = `acct${++n}`;
    const [{ id }] = await ds.query(
      `INSERT INTO accounts (username, username_key, email, email_key, password_hash, expires_on, max_devices, email_verified_at)
       VALUES ($1, $1, $2, $2, 'x', '2999-01-01', 10, $3) RETURNING id`,
      [name, `${name}@example.org`, verified ? new Date() : null],
    );
    const [{ uid }] = await ds.query(`INSERT INTO devices (eui, owner_id, label) VALUES ($1, $2, 'mailer') RETURNING uid`, [
      (0xe0000000 + n).toString(16).toUpperCase().padStart(16, '0'),
      id,
    ]);
    return { id: id as number, device: uid as number, email: `${name}@example.org` };
  };
  /** `count` alerts of the account whose raise is to be mailed, raised one minute apart from `from`. */
  const alerts = async (a: { id: number; device: number }, count: number, from = T): Promise<string[]> => {
    const rows: { uid: string }[] = await ds.query(
      `INSERT INTO alerts (account_id, rule_name, rule_kind, device_id, message, details, raised_at, mail_raised)
       SELECT $1, 'Hot', 'threshold', $2, 'Greenhouse: temperature ' || g || ' is above 30', '{}', $3::timestamptz + g * interval '1 minute', false
       FROM generate_series(1, $4::int) g RETURNING uid::text AS uid`,
      [a.id, a.device, from, count],
    );
    return rows.map((r) => r.uid);
  };
  const limits = (perRecipientPerHour: number, perAccountPerHour = 1_000): AlertMailLimits => ({ perRecipientPerHour, perAccountPerHour });
  const kinds = (decisions: AlertMailDecision[]) => decisions.map((d) => d.kind);
  const states = async (uids: string[]) =>
    (
      (await ds.query(`SELECT state, count(*)::int AS n FROM alert_mails WHERE alert_id = ANY($1::bigint[]) GROUP BY state ORDER BY state`, [uids])) as {
        state: string;
        n: number;
      }[]
    ).reduce<Record<string, number>>((o, r) => ({ ...o, [r.state]: r.n }), {});

  beforeAll(async () => {
    const db = await suiteDatabase('alert_mails');
    stop = db.stop;
    await runMigrations({ url: db.url, poolSize: 1 });
    ds = await new DataSource(dataSourceOptions({ url: db.url, poolSize: 4 })).initialize();
    other = await new DataSource(dataSourceOptions({ url: db.url, poolSize: 4 })).initialize();
    repo = new AlertMailsRepository(ds);
    secondWorker = new AlertMailsRepository(other);
  });
  afterAll(async () => {
    await other?.destroy();
    await ds?.destroy();
    await stop?.();
  });

  it('two workers deciding at once send exactly the hour’s limit to a recipient and hold the rest', async () => {
    const a = await account();
    const uids = await alerts(a, 40);
    const decisions = await Promise.all(uids.map((uid, i) => (i % 2 === 0 ? repo : secondWorker).decide(uid, 'raised', limits(7), T)));
    expect(kinds(decisions).filter((k) => k === 'send')).toHaveLength(7);
    expect(kinds(decisions).filter((k) => k === 'held')).toHaveLength(33);
    expect(await states(uids)).toEqual({ held: 33, sending: 7 });
    const [count] = await ds.query(`SELECT sent FROM mail_counts WHERE scope = 'alert-recipient' AND key = $1 AND window_start = $2`, [a.email, hourWindow(T)]);
    expect(count).toEqual({ sent: 7 });
    const held = decisions.find((d) => d.kind === 'held');
    expect(held).toEqual({ kind: 'held', reason: `over the limit of 7 alert mails an hour to ${a.email}: in the digest mailed after 11:00 UTC` });
    // The next hour has places again.
    const [later] = await alerts(a, 1);
    expect(await repo.decide(later!, 'raised', limits(7), new Date(T.getTime() + HOUR))).toEqual({ kind: 'send', to: a.email });
  });

  it('decides a storm of one account’s mails in one transaction (as the router does), and shares the hour’s places with the jobs deciding beside it', async () => {
    const a = await account();
    const stranger = await account(false);
    const storm = await alerts(a, 30);
    const single = await alerts(a, 20);
    const unverified = await alerts(stranger, 10);
    const mails = [...storm, ...unverified].map((alert_id) => ({ alert_id, action: 'raised' as const }));
    const [batch, ...singles] = await Promise.all([
      ds.transaction((tx) => decideAlertMails(tx, mails, limits(9), T)),
      ...single.map((uid) => secondWorker.decide(uid, 'raised', limits(9), T)),
    ]);
    const decisions = [...(batch as Map<string, AlertMailDecision>).values(), ...(singles as AlertMailDecision[])];
    expect(decisions).toHaveLength(60);
    expect(kinds(decisions).filter((k) => k === 'send')).toHaveLength(9);
    expect(kinds(decisions).filter((k) => k === 'held')).toHaveLength(41);
    expect(kinds(decisions).filter((k) => k === 'skipped')).toHaveLength(10);
    // Within the batch, the first mails (in the order given) take the places it got.
    const storms = storm.map((uid) => (batch as Map<string, AlertMailDecision>).get(alertMailKey({ alert_id: uid, action: 'raised' }))!.kind);
    expect(storms.join(' ')).toMatch(/^(send )*(held ?)*$/);
    // Decided once: the same mails again decide nothing.
    expect((await ds.transaction((tx) => decideAlertMails(tx, mails, limits(9), T))).size).toBe(0);
    expect(await states([...storm, ...single, ...unverified])).toEqual({ held: 41, sending: 9, skipped: 10 });
  });

  it('decides each mail once: a decided one is left alone, one being sent is sent again without a second place', async () => {
    const a = await account();
    const [first, second] = await alerts(a, 2);
    expect(await repo.decide(first!, 'raised', limits(1), T)).toEqual({ kind: 'send', to: a.email });
    // The job retried after a failed hand-off: the same mail again, same place.
    expect(await secondWorker.decide(first!, 'raised', limits(1), T)).toEqual({ kind: 'send', to: a.email });
    await repo.sent(first!, 'raised');
    expect(await repo.decide(first!, 'raised', limits(1), T)).toEqual({ kind: 'none' });
    expect((await repo.decide(second!, 'raised', limits(1), T)).kind).toBe('held');
    expect(await repo.decide(second!, 'raised', limits(1), T)).toEqual({ kind: 'none' });
    // A mail its rule did not want is never decided.
    await ds.query('UPDATE alerts SET mail_cleared = NULL WHERE uid = $1', [first]);
    expect(await repo.decide(first!, 'cleared', limits(1), T)).toEqual({ kind: 'none' });
    expect(await states([first!, second!])).toEqual({ held: 1, sent: 1 });
  });

  it('skips every mail to an unverified address, with the reason, counting nothing', async () => {
    const a = await account(false);
    const uids = await alerts(a, 5);
    for (const uid of uids) expect(await repo.decide(uid, 'raised', limits(100), T)).toEqual({ kind: 'skipped', reason: UNVERIFIED_REASON });
    expect(await states(uids)).toEqual({ skipped: 5 });
    expect(await ds.query(`SELECT * FROM mail_counts WHERE key IN ($1, $2)`, [a.email, String(a.id)])).toEqual([]);
    const [flags] = await ds.query('SELECT bool_and(mail_raised) AS decided FROM alerts WHERE uid = ANY($1::bigint[])', [uids]);
    expect(flags).toEqual({ decided: true });
  });

  it('holds the per-account limit across an address change (each recipient counted too)', async () => {
    const a = await account();
    const uids = await alerts(a, 6);
    const decide = (uid: string) => repo.decide(uid, 'raised', limits(100, 3), T);
    expect(kinds([await decide(uids[0]!), await decide(uids[1]!)])).toEqual(['send', 'send']);
    const moved = `moved${a.id}@example.org`;
    await ds.query('UPDATE accounts SET email = $2, email_key = $2 WHERE id = $1', [a.id, moved]);
    const after = [];
    for (const uid of uids.slice(2)) after.push(await decide(uid));
    expect(after).toEqual([
      { kind: 'send', to: moved },
      { kind: 'held', reason: 'over the account’s limit of 3 alert mails an hour: in the digest mailed after 11:00 UTC' },
      expect.objectContaining({ kind: 'held' }),
      expect.objectContaining({ kind: 'held' }),
    ]);
  });

  it('folds one recipient’s held mails of one hour into one digest, only once the hour (and a minute) ended, claimed by one worker', async () => {
    // The day before the other tests' hour: its digest is the only one due in this test's clock.
    const day = new Date(T.getTime() - 24 * HOUR);
    const a = await account();
    const uids = await alerts(a, 12, day);
    for (const uid of uids) await repo.decide(uid, 'raised', limits(2), day);
    const clock = (h: number, m: number, s = 0) => new Date(Date.UTC(2029, 11, 31, h, m, s));
    expect(await repo.claimDigest(clock(11, 0, 30), 2 * MINUTE, MINUTE)).toBeNull();
    const at = clock(11, 1, 30);
    const [one, two] = await Promise.all([repo.claimDigest(at, 2 * MINUTE, MINUTE), secondWorker.claimDigest(at, 2 * MINUTE, MINUTE)]);
    const claimed = [one, two].filter((d) => d !== null);
    expect(claimed).toEqual([{ id: expect.any(String), recipient: a.email, windowStart: hourWindow(day) }]);
    const digest = claimed[0]!;
    const items = await repo.digestItems(digest.id);
    expect(items).toHaveLength(10);
    expect(items.map((i) => i.at.getTime())).toEqual([...items.map((i) => i.at.getTime())].sort((x, y) => x - y));
    expect(items[0]).toEqual({
      action: 'raised',
      at: expect.any(Date),
      message: expect.stringMatching(/^Greenhouse: temperature \d+ is above 30$/),
      rule: 'Hot',
    });

    // Its sender died: nobody takes it while the lease holds; after, another worker does.
    expect(await secondWorker.claimDigest(new Date(at.getTime() + MINUTE), 2 * MINUTE, MINUTE)).toBeNull();
    const retaken = await secondWorker.claimDigest(new Date(at.getTime() + 3 * MINUTE), 2 * MINUTE, MINUTE);
    expect(retaken).toEqual(digest);
    await secondWorker.digestSent(retaken!, items.length);
    expect(await states(uids)).toEqual({ digested: 10, sending: 2 });
    const [reason] = await ds.query(`SELECT DISTINCT reason FROM alert_mails WHERE alert_id = ANY($1::bigint[]) AND state = 'digested'`, [uids]);
    expect(reason).toEqual({ reason: 'sent in the digest of 2029-12-31 10:00–11:00 UTC' });
    expect(await repo.claimDigest(new Date(at.getTime() + 10 * MINUTE), 2 * MINUTE, MINUTE)).toBeNull();
  });
});
