import type { AlertWire } from '@dts/domain';
import { AlertMailDigests } from '@dts/jobs';
import { eventually } from '@dts/platform';
import { getDataSourceToken } from '@nestjs/typeorm';
import { randomBytes } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { accountWithCredentials } from './support/accounts';
import { expectApiError } from './support/envelope';
import { startTestService, TEST_SECRETS, type TestService } from './support/harness';
import { lpp } from './support/payloads';
import { startSmtpServer, verificationToken } from './support/smtp-server';

/**
 * The attack of issue 28 (docs/reliability.md, "Alert mail"): an account registered with someone
 * else's address makes 500 threshold rules that mail, and 6 uplinks swing the value across the
 * limit — 3,000 alert mails. Unverified, the address gets none of them; verified, it gets at most
 * ALERT_MAILS_PER_RECIPIENT_PER_HOUR in each hour and one digest per hour for the rest, sent when
 * the hour has ended (the digest job is driven here with a clock an hour ahead).
 */

type Account = Awaited<ReturnType<typeof accountWithCredentials>>;
const RULES = 500;
/** Above, below, above…: each uplink raises or clears every rule's alert. */
const TEMPERATURES = [31, 29, 31, 29, 31, 29];
const MAILS = RULES * TEMPERATURES.length;
const PER_HOUR = 5;
const newEui = () => randomBytes(8).toString('hex').toUpperCase();

describe('alert mail: verified addresses only, and at most so many an hour', () => {
  let svc: TestService;
  let ds: DataSource;
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  let fcnt = 0;

  const ingest = (eui: string, t: number) =>
    svc
      .http()
      .post('/ingest/rest')
      .set('X-Ingest-Secret', TEST_SECRETS.INGEST_SECRET)
      .send({ devEUI: eui, port: 1, payload_hex: lpp({ t }), fcnt: ++fcnt })
      .expect(202);
  /** A device of the account and RULES threshold rules on it that mail, made through the API. */
  const armed = async (who: Account) => {
    const eui = newEui();
    await who.client.devices.register(eui, { decoder_ref: 2, label: 'Cold store' });
    for (let i = 0; i < RULES; i += 25) {
      await Promise.all(
        Array.from({ length: Math.min(25, RULES - i) }, (_, k) =>
          who.client.rules.create({ name: `Warm ${i + k}`, kind: 'threshold', member: 'temperature', above: 30, email: true, devices: { euis: [eui] } }),
        ),
      );
    }
    return eui;
  };
  /** Waits until every one of the account's alert mails is decided (and none is still being handed over). */
  const allDecided = (accountId: number, timeoutMs = 240_000) =>
    eventually(
      async () => {
        const [row] = await ds.query(
          `SELECT count(*)::int AS decided, count(*) FILTER (WHERE m.state = 'sending')::int AS sending
           FROM alert_mails m JOIN alerts a ON a.uid = m.alert_id WHERE a.account_id = $1`,
          [accountId],
        );
        expect(row).toEqual({ decided: MAILS, sending: 0 });
      },
      { what: `every alert mail of account ${accountId} to be decided`, timeoutMs, intervalMs: 100 },
    );
  /** Every alert of the account through the API, in pages. */
  const alertsOf = async (who: Account) => {
    const all: AlertWire[] = [];
    for (;;) {
      const page = await who.client.alerts.list({ limit: 1000, ...(all.length > 0 ? { before: all[all.length - 1]!.uid } : {}) });
      all.push(...page);
      if (page.length < 1000) return all;
    }
  };
  const alertMailsTo = (address: string) => smtp.mailsTo(address, /^(Alert|Cleared): /);

  beforeAll(async () => {
    smtp = await startSmtpServer();
    svc = await startTestService({
      env: {
        SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
        ALERT_MAILS_PER_RECIPIENT_PER_HOUR: String(PER_HOUR),
        ALERT_MAILS_PER_ACCOUNT_PER_HOUR: '1000',
        RATE_LIMIT_PER_MINUTE: '1000000',
        AUTH_RATE_LIMIT_PER_MINUTE: '1000',
      },
    });
    ds = svc.app.get<DataSource>(getDataSourceToken());
  });
  afterAll(async () => {
    await svc?.close();
    await smtp?.close();
  });

  it('an account with someone else’s (unverified) address and 500 mail rules sends it nothing but the one verification mail', async () => {
    const mallory = await accountWithCredentials(svc, 'mallory');
    const victim = mallory.account.email;
    const eui = await armed(mallory);
    const started = Date.now();
    for (const t of TEMPERATURES) await ingest(eui, t);
    await allDecided(mallory.account.id);
    const decidedMs = Date.now() - started;

    const alerts = await alertsOf(mallory);
    expect(alerts).toHaveLength(RULES * (TEMPERATURES.length / 2));
    const skipped = { state: 'skipped', reason: 'the account’s e-mail address is not verified' };
    expect(alerts.filter((a) => JSON.stringify(a.mail) !== JSON.stringify({ raised: skipped, cleared: skipped }))).toEqual([]);
    // The verification mail of the registration, and not one alert mail.
    await smtp.waitForMail(victim, 'Verify your e-mail address');
    expect(smtp.mailsTo(victim).map((m) => m.subject)).toEqual(['Verify your e-mail address']);
    process.stdout.write(`alert mail attack, unverified: ${MAILS} alert mails decided in ${decidedMs} ms, ${alertMailsTo(victim).length} sent\n`);
  }, 600_000);

  it('a verified account hitting the limit gets at most the limit and one digest per hour, the rest told in the digest; nothing lost', async () => {
    const alice = await accountWithCredentials(svc, 'alice');
    await svc
      .http()
      .post('/auth/verify')
      .send({ token: verificationToken(await smtp.waitForMail(alice.account.email, 'Verify your e-mail address')) })
      .expect(200);
    const eui = await armed(alice);
    const started = Date.now();
    for (const t of TEMPERATURES) await ingest(eui, t);
    await allDecided(alice.account.id);
    const decidedMs = Date.now() - started;

    // Per clock hour (a run across an hour's end counts in two): the limit sent, the rest held.
    const hours: { window_start: Date; sent: number; held: number }[] = await ds.query(
      `SELECT m.window_start, count(*) FILTER (WHERE m.state = 'sent')::int AS sent, count(*) FILTER (WHERE m.state = 'held')::int AS held
       FROM alert_mails m JOIN alerts a ON a.uid = m.alert_id WHERE a.account_id = $1 GROUP BY 1 ORDER BY 1`,
      [alice.account.id],
    );
    expect(hours.length).toBeGreaterThanOrEqual(1);
    for (const h of hours) expect(h.sent).toBe(Math.min(PER_HOUR, h.sent + h.held));
    const heldHours = hours.filter((h) => h.held > 0);
    const sent = hours.reduce((n, h) => n + h.sent, 0);
    const held = hours.reduce((n, h) => n + h.held, 0);
    expect(sent + held).toBe(MAILS);
    expect(alertMailsTo(alice.account.email)).toHaveLength(sent);

    // Nothing is digested before its hour (and a minute) ended.
    const digests = svc.app.get(AlertMailDigests, { strict: false });
    const now = Date.now();
    await digests.sendDue(new Date(now));
    for (const h of heldHours.filter((x) => x.window_start.getTime() + 61 * 60_000 > now)) {
      const [{ waiting }] = await ds.query(
        `SELECT count(*)::int AS waiting FROM alert_mails m JOIN alerts a ON a.uid = m.alert_id
         WHERE a.account_id = $1 AND m.window_start = $2 AND m.state = 'held' AND m.digest_id IS NULL`,
        [alice.account.id, h.window_start],
      );
      expect(waiting).toBe(h.held);
    }
    // An hour (and two minutes) later: one digest for each hour that held mails (the scheduled job
    // may have sent an hour's that ended during the run: the mails count, whoever sent them).
    const later = new Date(now + 62 * 60_000 + 60_000 * hours.length);
    await digests.sendDue(later);
    const digestMails = smtp.mailsTo(alice.account.email, /more alerts?: /);
    expect(digestMails).toHaveLength(heldHours.length);
    for (const [i, h] of heldHours.entries()) {
      const mail = digestMails[i]!;
      expect(mail.subject).toMatch(new RegExp(`^${h.held} more alerts: ${h.window_start.toISOString().slice(0, 13).replace('T', ' ')}:00–`));
      expect(mail.text).toContain('By rule:');
      // A run across an hour's end (CI's was, at 05:56) splits a rule's raises and clears between the two hours' digests.
      expect(mail.text).toMatch(heldHours.length === 1 ? / {2}Warm \d+: [1-3] raised, [1-3] cleared/ : / {2}Warm \d+: [1-3] (raised|cleared)/);
      expect(mail.text).toContain('… and');
    }
    // Again: nothing more.
    expect(await digests.sendDue(later)).toBe(0);
    expect(smtp.mailsTo(alice.account.email, /more alerts?: /)).toHaveLength(heldHours.length);

    const alerts = await alertsOf(alice);
    const outcomes = alerts.flatMap((a) => [a.mail?.raised.state, a.mail?.cleared?.state]);
    expect(outcomes).toHaveLength(MAILS);
    expect(outcomes.filter((s) => s === 'sent')).toHaveLength(sent);
    expect(outcomes.filter((s) => s === 'digested')).toHaveLength(held);
    const digested = alerts.find((a) => a.mail?.raised.state === 'digested')!;
    expect(digested.mail!.raised.reason).toMatch(/^sent in the digest of \d{4}-\d{2}-\d{2} \d{2}:00–\d{2}:00 UTC$/);
    expect(smtp.mailsTo(alice.account.email).length).toBe(1 + sent + heldHours.length);
    process.stdout.write(
      `alert mail attack, verified: ${MAILS} alert mails decided in ${decidedMs} ms over ${hours.length} clock hour(s): ${sent} sent, ` +
        `${held} in ${heldHours.length} digest(s)\n`,
    );
  }, 600_000);

  it('keeps an account at its 2,000 rules, also when they are asked for at once', async () => {
    const bob = await accountWithCredentials(svc, 'bob');
    await ds.query(`INSERT INTO alert_rules (account_id, name, kind, minutes) SELECT $1, 'Quiet ' || g, 'offline', 60 FROM generate_series(1, 1995) g`, [
      bob.account.id,
    ]);
    const results = await Promise.allSettled(
      Array.from({ length: 12 }, (_, i) => bob.client.rules.create({ name: `More ${i}`, kind: 'threshold', member: 'temperature', above: 30, email: true })),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(5);
    for (const r of results) if (r.status === 'rejected') await expectApiError(Promise.reject(r.reason), 409, 'LIMIT_REACHED');
    const [{ n }] = await ds.query('SELECT count(*)::int AS n FROM alert_rules WHERE account_id = $1', [bob.account.id]);
    expect(n).toBe(2_000);
  });
});
