import { pause } from '@dts/platform';
import { getDataSourceToken } from '@nestjs/typeorm';
import { randomBytes } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { accountWithCredentials, bearer, login, registerAccount } from './support/accounts';
import { expectError, expectSuccess } from './support/envelope';
import { startTestService, type TestService } from './support/harness';
import { startSmtpServer, verificationToken } from './support/smtp-server';

/**
 * E-mail verification (docs/api.md §3): the mail at registration, POST /auth/verify, the mail sent
 * again (POST /user/email/verify) within its hourly limit, and a change of address (PATCH /user)
 * that stays pending until the new address is verified. Mails go to a real SMTP server.
 */

type Account = Awaited<ReturnType<typeof accountWithCredentials>>;
const VERIFY = 'Verify your e-mail address';
const ADMIN = { username: 'verify_admin', password: 'verify-admin-password-0123' };
/** The most verification mails to one address per hour in this suite. */
const PER_HOUR = 3;

describe('e-mail verification', () => {
  let svc: TestService;
  let ds: DataSource;
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  const unique = (prefix: string) => `${prefix}_${randomBytes(3).toString('hex')}`;

  /** The token of the `count`-th verification mail to this address. */
  const tokenMailedTo = async (email: string, count = 1) => verificationToken(await smtp.waitForMail(email, VERIFY, { count }));
  const verify = (body: unknown) =>
    svc
      .http()
      .post('/auth/verify')
      .send(body as object);
  const me = async (who: Account) => expectSuccess<Record<string, unknown>>(await svc.http().get('/user').set('Cookie', who.cookie));
  const stored = async (id: number) =>
    (await ds.query('SELECT email, email_pending, email_verified_at IS NOT NULL AS verified FROM accounts WHERE id = $1', [id]))[0] as {
      email: string;
      email_pending: string | null;
      verified: boolean;
    };
  const verified = async (prefix: string) => {
    const who = await accountWithCredentials(svc, prefix);
    expectSuccess(await verify({ token: await tokenMailedTo(who.account.email) }));
    return who;
  };
  /**
   * Counting tests need their mails in one clock hour: near its end, wait for the next (a state of
   * the clock, bounded by the minute it can take).
   */
  const awayFromHourEnd = async () => {
    const left = 3_600_000 - (Date.now() % 3_600_000);
    if (left < 60_000) await pause(left + 100);
  };

  beforeAll(async () => {
    smtp = await startSmtpServer();
    svc = await startTestService({
      env: {
        SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
        VERIFICATION_MAILS_PER_HOUR: String(PER_HOUR),
        AUTH_RATE_LIMIT_PER_MINUTE: '1000',
        ADMIN_USERNAME: ADMIN.username,
        ADMIN_PASSWORD: ADMIN.password,
      },
    });
    ds = svc.app.get<DataSource>(getDataSourceToken());
  });
  afterAll(async () => {
    await svc?.close();
    await smtp?.close();
  });

  describe('POST /auth/verify', () => {
    it('confirms the address a new account is mailed a token for; GET /user says so; the link again answers the same', async () => {
      const alice = await accountWithCredentials(svc, 'alice');
      expect(await me(alice)).toMatchObject({ email: alice.account.email, email_verified: false, email_pending: null });
      const mail = await smtp.waitForMail(alice.account.email, VERIFY);
      const token = verificationToken(mail);
      expect(mail.text).toContain(`${svc.config.publicBaseUrl}/console/verify-email#token=${token}`);
      expect(mail.text).toContain('no alert mail goes to it');

      const res = await verify({ token });
      expect({ status: res.status, body: res.body }).toEqual({
        status: 200,
        body: { errors: [], debug: [], meta: [], messages: [], data: { email: alice.account.email, email_verified: true }, success: true },
      });
      expect(await me(alice)).toMatchObject({ email: alice.account.email, email_verified: true, email_pending: null });
      // A second click on the link.
      expect(expectSuccess(await verify({ token }))).toEqual({ email: alice.account.email, email_verified: true });

      // Nothing left to verify: nothing is sent.
      expect(
        expectSuccess(
          await svc
            .http()
            .post('/user/email/verify')
            .set(...bearer(alice.appToken)),
        ),
      ).toEqual({ sent: false, to: null });
    });

    it.each<[string, Record<string, unknown>, string]>([
      ['no token', {}, 'token'],
      ['a token that is not 64 hexadecimal characters', { token: 'abc' }, 'token'],
      ['a token in capitals', { token: 'A'.repeat(64) }, 'token'],
      ['a token that is a number', { token: 42 }, 'token'],
      ['an unknown member', { token: '0'.repeat(64), email: 'x@example.org' }, 'email'],
    ])('refuses %s with 400 naming the field, verifying nothing', async (_what, body, field) => {
      const who = await registerAccount(svc, 'badverify');
      await smtp.waitForMail(who.email, VERIFY);
      expectError(await verify(body), 400, 'VALIDATION_FAILED', field);
      expect(await stored(who.id)).toEqual({ email: who.email, email_pending: null, verified: false });
    });

    it('refuses an unknown token with 400 INVALID_VERIFICATION_TOKEN naming it', async () => {
      expectError(await verify({ token: randomBytes(32).toString('hex') }), 400, 'INVALID_VERIFICATION_TOKEN', 'token');
    });
  });

  describe('POST /user/email/verify', () => {
    it('needs credentials (401)', async () => {
      expectError(await svc.http().post('/user/email/verify'), 401, 'AUTH_REQUIRED');
    });

    it('mails a new token, which replaces the earlier one; at most VERIFICATION_MAILS_PER_HOUR to one address, then 429 until the hour ends', async () => {
      await awayFromHourEnd();
      const bob = await accountWithCredentials(svc, 'bob');
      const first = await tokenMailedTo(bob.account.email);
      for (let n = 2; n <= PER_HOUR; n++) {
        expect(
          expectSuccess(
            await svc
              .http()
              .post('/user/email/verify')
              .set(...bearer(bob.appToken)),
          ),
        ).toEqual({ sent: true, to: bob.account.email });
        await tokenMailedTo(bob.account.email, n);
      }
      const limited = await svc.http().post('/user/email/verify').set('Cookie', bob.cookie);
      expectError(limited, 429, 'RATE_LIMITED');
      const retryAfter = Number(limited.headers['retry-after']);
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(3_600 - (Math.floor(Date.now() / 1000) % 3_600) + 1);

      expectError(await verify({ token: first }), 400, 'INVALID_VERIFICATION_TOKEN', 'token');
      expect(await stored(bob.account.id)).toMatchObject({ verified: false });
      expectSuccess(await verify({ token: await tokenMailedTo(bob.account.email, PER_HOUR) }));
      expect(await me(bob)).toMatchObject({ email_verified: true });
      expect(smtp.mailsTo(bob.account.email, VERIFY)).toHaveLength(PER_HOUR);
    });
  });

  describe('PATCH /user (a new address)', () => {
    it('keeps the new address pending, mails it a token, and swaps it in once verified: the old address is told, its reset token ends', async () => {
      const carol = await verified('carol');
      const old = carol.account.email;
      const next = `${unique('carol_new')}@example.org`;
      const res = await svc
        .http()
        .patch('/user')
        .set(...bearer(carol.masterToken))
        .send({ email: next, current_password: carol.account.password });
      expect(expectSuccess(res)).toMatchObject({ id: carol.account.id, email: old, email_verified: true, email_pending: next });
      const mail = await smtp.waitForMail(next, VERIFY);
      expect(mail.text).toContain('is to become the address');

      // Until then the account is the old address's: login, password reset.
      expect((await svc.http().post('/auth/login').send({ username: next, password: carol.account.password })).status).toBe(401);
      expectSuccess(await svc.http().post('/auth/restore').send({ email: old }));
      const reset = /\b([0-9a-f]{64})\b/.exec((await smtp.waitForMail(old, 'Password reset')).text)![1]!;

      expect(expectSuccess(await verify({ token: verificationToken(mail) }))).toEqual({ email: next, email_verified: true });
      expect(await me(carol)).toMatchObject({ email: next, email_verified: true, email_pending: null });
      expect((await smtp.waitForMail(old, 'The e-mail address of your account changed')).text).toContain(next);
      expect((await svc.http().post('/auth/login').send({ username: next, password: carol.account.password })).status).toBe(200);
      expect((await svc.http().post('/auth/login').send({ username: old, password: carol.account.password })).status).toBe(401);
      expectError(await svc.http().post('/auth/restore').send({ token: reset, password: 'a brand new password' }), 400, 'INVALID_RESET_TOKEN', 'token');
    });

    it('with the current address withdraws a pending change: its token no longer verifies', async () => {
      const dave = await verified('dave');
      const next = `${unique('dave_new')}@example.org`;
      expectSuccess(await svc.http().patch('/user').set('Cookie', dave.cookie).send({ email: next, current_password: dave.account.password }));
      const token = await tokenMailedTo(next);
      const back = await svc
        .http()
        .patch('/user')
        .set('Cookie', dave.cookie)
        .send({ email: dave.account.email.toUpperCase(), current_password: dave.account.password });
      expect(expectSuccess(back)).toMatchObject({ email: dave.account.email, email_verified: true, email_pending: null });
      expectError(await verify({ token }), 400, 'INVALID_VERIFICATION_TOKEN', 'token');
      expect(await stored(dave.account.id)).toEqual({ email: dave.account.email, email_pending: null, verified: true });
    });

    it('answers 409 EMAIL_TAKEN at verification when another account took the pending address meanwhile, changing nothing', async () => {
      const erin = await verified('erin');
      const wanted = `${unique('wanted')}@example.org`;
      expectSuccess(await svc.http().patch('/user').set('Cookie', erin.cookie).send({ email: wanted, current_password: erin.account.password }));
      const token = await tokenMailedTo(wanted);
      expectSuccess(
        await svc
          .http()
          .post('/auth/register')
          .send({ username: unique('taker'), email: wanted, password: 'another password 0123' }),
        201,
      );
      expectError(await verify({ token }), 409, 'EMAIL_TAKEN');
      expect(await stored(erin.account.id)).toEqual({ email: erin.account.email, email_pending: wanted, verified: true });
    });

    it.each<[string, (who: Account) => Record<string, unknown>, string]>([
      ['a malformed address', (w) => ({ email: 'not-an-address', current_password: w.account.password }), 'email'],
      ['no address', (w) => ({ current_password: w.account.password }), 'email'],
      ['no password', () => ({ email: 'someone@example.org' }), 'current_password'],
      ['an unknown member', (w) => ({ email: 'someone@example.org', current_password: w.account.password, fullname: 'X' }), 'fullname'],
    ])('refuses %s with 400 naming the field, storing and mailing nothing', async (_what, body, field) => {
      const who = await accountWithCredentials(svc, 'patchbad');
      const before = await stored(who.account.id);
      expectError(await svc.http().patch('/user').set('Cookie', who.cookie).send(body(who)), 400, 'VALIDATION_FAILED', field);
      expect(await stored(who.account.id)).toEqual(before);
      expect(smtp.mailsTo('someone@example.org')).toEqual([]);
    });

    it('refuses a wrong password (403 WRONG_PASSWORD), an app token (403 FORBIDDEN), no credentials (401) and another account’s address (409), storing nothing', async () => {
      const frank = await accountWithCredentials(svc, 'frank');
      const other = await registerAccount(svc, 'frank_other');
      const before = await stored(frank.account.id);
      const next = `${unique('frank_new')}@example.org`;
      const patch = () => svc.http().patch('/user');
      expectError(
        await patch().set('Cookie', frank.cookie).send({ email: next, current_password: 'not the password' }),
        403,
        'WRONG_PASSWORD',
        'current_password',
      );
      expectError(
        await patch()
          .set(...bearer(frank.appToken))
          .send({ email: next, current_password: frank.account.password }),
        403,
        'FORBIDDEN',
      );
      expectError(await patch().send({ email: next, current_password: frank.account.password }), 401, 'AUTH_REQUIRED');
      expectError(
        await patch().set('Cookie', frank.cookie).send({ email: other.email.toUpperCase(), current_password: frank.account.password }),
        409,
        'EMAIL_TAKEN',
        'email',
      );
      expect(await stored(frank.account.id)).toEqual(before);
      expect(smtp.mailsTo(next)).toEqual([]);
    });
  });

  it('takes the configured administrator’s address as verified, and mails it nothing', async () => {
    const cookie = await login(svc, { id: 0, email: '', ...ADMIN });
    const admin = expectSuccess<{ id: number; email: string; email_verified: boolean }>(await svc.http().get('/user').set('Cookie', cookie));
    expect(admin).toMatchObject({ email: `${ADMIN.username}@localhost`, email_verified: true });
    expect(await ds.query('SELECT 1 FROM email_verifications WHERE account_id = $1', [admin.id])).toEqual([]);
    expect(smtp.mailsTo(admin.email)).toEqual([]);
  });
});

describe('stopping with a verification mail in flight', () => {
  it('stops promptly: the mail job finishes on open pools, then they close', async () => {
    const smtp = await startSmtpServer();
    try {
      const svc = await startTestService({ env: { SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, AUTH_RATE_LIMIT_PER_MINUTE: '1000' } });
      // The sign-up answers before its mail is sent: the stop begins with the mail job in flight.
      const { email } = await registerAccount(svc, `stopping_${randomBytes(3).toString('hex')}`);
      const started = Date.now();
      // Nest closed the pools and the queue workers in one phase, in no set order: a job whose
      // pool closed under it never settled, and the stop waited on it for ever.
      await Promise.race([svc.close(), pause(15_000).then(() => Promise.reject(new Error('the stop did not end within 15 s')))]);
      expect(Date.now() - started).toBeLessThan(15_000);
      expect(smtp.mailsTo(email, VERIFY).length).toBeLessThanOrEqual(1);
    } finally {
      await smtp.close();
    }
  }, 60_000);
});
